package screens

import "testing"

func TestZZStripMin(t *testing.T) {
	c, _, _ := compactCaller(t)
	WithUI(func() {
		t.Logf("strip min %v", c.compact.strip.MinSize())
		c.msg.SetText("something long went wrong with the connection to the host")
		c.refresh()
		t.Logf("strip min with msg %v", c.compact.strip.MinSize())
	})
}
