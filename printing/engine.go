package printing

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"

	"jiaohao/model"
)

// Engine speaks text and plays sounds, returning when done: the announcer
// relies on that to never let two announcements overlap. Only offline
// engines are used, so a hall without internet still speaks.
type Engine interface {
	Name() string
	// Speak says text in lang: "zh" (Mandarin) or "en".
	Speak(ctx context.Context, text, lang string) error
	// Play plays a WAV file (the chime).
	Play(ctx context.Context, wav string) error
}

// Engine names for the voice_engine setting; "auto" picks the platform's.
const (
	EngineAuto   = "auto"
	EngineEspeak = "espeak-ng"
	EngineSAPI   = "sapi" // Windows System.Speech through PowerShell
	EngineSay    = "say"  // macOS
)

// FindEngine returns the named engine if it is installed. "" or "auto"
// means espeak-ng on Linux, System.Speech on Windows, say on macOS.
func FindEngine(name string) (Engine, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" || name == EngineAuto {
		name = map[string]string{"windows": EngineSAPI, "darwin": EngineSay}[runtime.GOOS]
		if name == "" {
			name = EngineEspeak
		}
	}
	var prog string
	switch name {
	case EngineEspeak:
		prog = "espeak-ng"
	case EngineSAPI:
		prog = "powershell"
	case EngineSay:
		prog = "say"
	default:
		return nil, model.Errorf(model.EInvalidInput, "语音引擎 %q 未知，可选 auto、espeak-ng、sapi、say", name)
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		return nil, model.Errorf(model.EUnavailable, "未找到语音引擎 %s，叫号将不播报语音", name)
	}
	switch name {
	case EngineSAPI:
		return sapi{path: path}, nil
	case EngineSay:
		return say{path: path}, nil
	}
	return &Espeak{Path: path}, nil
}

// Espeak is espeak-ng. With WAV set it writes each utterance to that file
// instead of the sound card, which is how it is tested without speakers.
type Espeak struct {
	Path string // the espeak-ng binary
	WAV  string
}

func (e *Espeak) Name() string { return EngineEspeak }

func (e *Espeak) Speak(ctx context.Context, text, lang string) error {
	voice := "cmn" // Mandarin
	if lang == "en" {
		voice = "en"
	}
	args := []string{"-v", voice, "-s", "140"}
	if e.WAV != "" {
		args = append(args, "-w", e.WAV)
	}
	return runCommand(ctx, nil, e.Path, append(args, "--", text)...)
}

// Play uses the first player found: PulseAudio, ALSA, then sox.
func (e *Espeak) Play(ctx context.Context, wav string) error {
	for _, p := range []string{"paplay", "aplay", "play"} {
		if path, err := exec.LookPath(p); err == nil {
			args := []string{wav}
			if p == "aplay" {
				args = []string{"-q", wav}
			}
			return runCommand(ctx, nil, path, args...)
		}
	}
	return fmt.Errorf("no sound player (paplay, aplay or play) found for the chime")
}

// sapi speaks through .NET System.Speech; the text goes through the
// environment so no quoting can break the script.
type sapi struct{ path string }

const sapiScript = `$ErrorActionPreference='Stop'
Add-Type -AssemblyName System.Speech
$s=New-Object System.Speech.Synthesis.SpeechSynthesizer
$v=$s.GetInstalledVoices() | Where-Object { $_.Enabled -and $_.VoiceInfo.Culture.Name -like "$env:JIAOHAO_LANG*" } | Select-Object -First 1
if($v){ $s.SelectVoice($v.VoiceInfo.Name) }
$s.Speak($env:JIAOHAO_TEXT)`

const sapiPlay = `(New-Object System.Media.SoundPlayer $env:JIAOHAO_WAV).PlaySync()`

func (sapi) Name() string { return EngineSAPI }

func (s sapi) Speak(ctx context.Context, text, lang string) error {
	culture := "zh"
	if lang == "en" {
		culture = "en"
	}
	env := []string{"JIAOHAO_TEXT=" + text, "JIAOHAO_LANG=" + culture}
	return runCommand(ctx, env, s.path, "-NoProfile", "-NonInteractive", "-Command", sapiScript)
}

func (s sapi) Play(ctx context.Context, wav string) error {
	return runCommand(ctx, []string{"JIAOHAO_WAV=" + wav}, s.path, "-NoProfile", "-NonInteractive", "-Command", sapiPlay)
}

// say is macOS's speech command; Ting-Ting is its Mandarin voice.
type say struct{ path string }

func (say) Name() string { return EngineSay }

func (s say) Speak(ctx context.Context, text, lang string) error {
	if lang == "en" {
		return runCommand(ctx, nil, s.path, "--", text)
	}
	return runCommand(ctx, nil, s.path, "-v", "Ting-Ting", "--", text)
}

func (say) Play(ctx context.Context, wav string) error {
	return runCommand(ctx, nil, "afplay", wav)
}
