package printing

import (
	"testing"

	"jiaohao/model"
)

func TestSpellNumber(t *testing.T) {
	for _, tc := range []struct{ in, lang, want string }{
		{"A012", "zh", "A 零 一 二"},
		{"V100", "zh", "V 一 零 零"},
		{"b9", "zh", "B 九"},
		{"A1000", "zh", "A 一 零 零 零"},
		{"A012", "en", "A zero one two"},
		{"", "zh", ""},
	} {
		if got := SpellNumber(tc.in, tc.lang); got != tc.want {
			t.Errorf("SpellNumber(%q, %s) = %q, want %q", tc.in, tc.lang, got, tc.want)
		}
	}
}

func TestSpeechTextDefaults(t *testing.T) {
	tk := model.Ticket{Number: "A012", Window: 3}
	if got := SpeechText(model.DefaultSettings["voice_template"], tk, "zh"); got != "请 A 零 一 二 号到 3 号窗口办理" {
		t.Errorf("zh: %q", got)
	}
	if got := SpeechText(model.DefaultSettings["voice_template_en"], tk, "en"); got != "Number A zero one two, please go to window 3" {
		t.Errorf("en: %q", got)
	}
}

func TestAnnouncerSettings(t *testing.T) {
	s := model.ParseSettings(map[string]string{"voice_repeat": "3", "voice_template_en": ""})
	c := AnnouncerSettings(s, "espeak-ng", "")
	if c.Repeat != 3 || c.English || c.Template != model.DefaultSettings["voice_template"] || c.EngineName != "espeak-ng" {
		t.Errorf("config %+v", c)
	}
	if c := AnnouncerSettings(model.ParseSettings(nil), "", ""); !c.English || c.Repeat != 2 {
		t.Errorf("defaults %+v", c)
	}
}
