package printing

import (
	"strconv"
	"strings"
	"unicode"

	"jiaohao/model"
)

var zhDigits = [...]string{"零", "一", "二", "三", "四", "五", "六", "七", "八", "九"}

var enDigits = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// SpellNumber says a ticket number character by character, the way halls
// announce it: "A012" is "A 零 一 二" in Chinese and "A zero one two" in
// English, never "A 十二", which customers mishear.
func SpellNumber(number, lang string) string {
	digits := zhDigits[:]
	if lang == "en" {
		digits = enDigits[:]
	}
	parts := make([]string, 0, len(number))
	for _, r := range number {
		switch {
		case r >= '0' && r <= '9':
			parts = append(parts, digits[r-'0'])
		case unicode.IsSpace(r):
		default:
			parts = append(parts, string(unicode.ToUpper(r)))
		}
	}
	return strings.Join(parts, " ")
}

// SpeechText fills a voice template ("请 {number} 号到 {window} 号窗口办理")
// for a called ticket in lang ("zh" or "en"). A ticket that names its
// waiting area (Ticket.Area: the screen sets it when the call sends the
// customer to an area other than its own) fills {area}; a Chinese template
// without {area} says the area before the window ("请 A012 号到二楼 3 号
// 窗口办理"), so the branch's own templates need no change. An English
// template names the area only where it has {area}: the place is typed
// in Chinese.
func SpeechText(template string, t model.Ticket, lang string) string {
	area := ""
	if t.Area != nil {
		area = t.Area.Spoken()
	}
	window := strconv.Itoa(t.Window)
	if area != "" && lang != "en" && !strings.Contains(template, "{area}") {
		window = area + " " + window
	}
	return strings.NewReplacer(
		"{number}", SpellNumber(t.Number, lang),
		"{window}", window,
		"{area}", area,
	).Replace(template)
}

// CallTemplate is the template a call is said with: requeue for a ticket
// marked 重叫 (put back in line after it was passed) when it is set, else
// normal.
func CallTemplate(normal, requeue string, t model.Ticket) string {
	if t.Requeued > 0 && strings.TrimSpace(requeue) != "" {
		return requeue
	}
	return normal
}
