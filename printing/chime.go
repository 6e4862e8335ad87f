package printing

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
)

// ChimeDefault names the built-in chime in AnnouncerConfig.Chime.
const ChimeDefault = "default"

// ChimeWAV synthesises the classic two-tone hall chime (E5 then C5, each
// fading out) as 16-bit mono PCM at 16 kHz: no sound file to ship or lose.
func ChimeWAV() []byte {
	const rate = 16000
	var pcm bytes.Buffer
	for _, tone := range []struct{ hz, secs float64 }{{659.25, 0.45}, {523.25, 0.7}} {
		n := int(tone.secs * rate)
		for i := 0; i < n; i++ {
			t := float64(i) / rate
			v := math.Sin(2*math.Pi*tone.hz*t) * math.Exp(-4*t/tone.secs) * 0.5
			binary.Write(&pcm, binary.LittleEndian, int16(v*math.MaxInt16))
		}
	}
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + pcm.Len()))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1)) // PCM
	le(uint16(1)) // mono
	le(uint32(rate))
	le(uint32(rate * 2)) // bytes per second
	le(uint16(2))        // block align
	le(uint16(16))       // bits per sample
	b.WriteString("data")
	le(uint32(pcm.Len()))
	b.Write(pcm.Bytes())
	return b.Bytes()
}

// defaultChimePath writes the built-in chime to the temp folder once, since
// every player wants a file.
var defaultChimePath = sync.OnceValues(func() (string, error) {
	path := filepath.Join(os.TempDir(), "jiaohao-chime.wav")
	if err := os.WriteFile(path, ChimeWAV(), 0o644); err != nil {
		return "", fmt.Errorf("write chime: %w", err)
	}
	return path, nil
})

// chimeFile resolves the Chime setting to a WAV file ("" for none).
func chimeFile(chime string) (string, error) {
	if chime == ChimeDefault {
		return defaultChimePath()
	}
	return chime, nil
}
