package screens

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// Setup is the first-run form: the role of this PC, how it reaches the
// queue, its window number, the devices plugged into it and language. Its
// keeper checks and saves what it says; "try it on this PC" runs the demo
// instead.
type Setup struct {
	w      fyne.Window
	keep   SetupKeeper
	files  SetupFiles // nil: no export and import
	onDone func(SetupValues)
	onDemo func()

	role, mode    *widget.RadioGroup
	window        *widget.Entry
	peer, dsn     *widget.Entry
	branch        *widget.Entry // the branch's code on a shared database
	token, pin    *widget.Entry
	printer, led  *widget.Entry
	lang          *widget.Select
	layout        *widget.Select // a hall screen's own layout
	media         *widget.Entry  // its folder of still images
	area          *widget.Entry  // its waiting area, by name
	save, demo    *widget.Button
	msg           *widget.Label
	peerRows, dbR *fyne.Container
	windowRow     *fyne.Container
	printerRow    *fyne.Container
	hallRows      *fyne.Container
	content       fyne.CanvasObject
	// hotkeys has no field: the form carries what it was filled with
	// (the saved setup, an imported file) to what it saves and starts.
	hotkeys string
}

// label maps between stored values and what the form shows.
type label struct{ value, text string }

// roleLabels are the roles a PC runs, by their translated names (a
// handheld is a phone's browser, not a PC).
func roleLabels() []label {
	var out []label
	for _, r := range model.DesktopRoles() {
		out = append(out, label{string(r.Role), tr(r.Label)})
	}
	return out
}

// branchRoleLabels are the roles a branch's manager registers PCs for:
// head office's belongs to no branch (jiaohao token add --role hq).
func branchRoleLabels() []label {
	var out []label
	for _, r := range model.DesktopRoles() {
		if !r.HeadOffice {
			out = append(out, label{string(r.Role), tr(r.Label)})
		}
	}
	return out
}

// roleOf is the role a label picker shows now (zero when none is chosen),
// with its row of the table.
func roleOf(selected string) (model.Role, model.RoleSpec) {
	r := model.Role(valueOf(roleLabels(), selected))
	spec, _ := r.Spec()
	return r, spec
}

func modeLabels() []label {
	return []label{{ModeHost, tr("setup.mode_host")}, {ModePeer, tr("setup.mode_peer")}, {ModeDB, tr("setup.mode_db")}}
}

var langLabels = []label{{"zh", "中文"}, {"en", "English"}}

// layoutLabels are the hall layouts a PC may choose, the branch's first.
func layoutLabels() []label {
	out := []label{{"", tr("setup.hall_layout_branch")}}
	for _, l := range model.HallLayouts {
		out = append(out, label{string(l), layoutName(l)})
	}
	return out
}

func texts(ls []label) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.text
	}
	return out
}

func valueOf(ls []label, text string) string {
	for _, l := range ls {
		if l.text == text {
			return l.value
		}
	}
	return ""
}

func textOf(ls []label, value string) string {
	for _, l := range ls {
		if l.value == value {
			return l.text
		}
	}
	return ""
}

// NewSetup shows the setup form in w, filled from what k has saved. onDone
// (may be nil) gets the values k kept; onDemo (may be nil) runs the demo.
func NewSetup(w fyne.Window, k SetupKeeper, onDone func(SetupValues), onDemo func()) *Setup {
	s := &Setup{w: w, keep: k, onDone: onDone, onDemo: onDemo}
	s.files, _ = k.(SetupFiles)
	s.build(k.Load())
	w.SetContent(s.content)
	return s
}

// Content is the form's root object.
func (s *Setup) Content() fyne.CanvasObject { return s.content }

func (s *Setup) build(cfg SetupValues) {
	s.role = widget.NewRadioGroup(texts(roleLabels()), func(string) { s.arrange() })
	s.role.Horizontal = true
	s.mode = widget.NewRadioGroup(texts(modeLabels()), func(string) { s.arrange() })
	s.window = widget.NewEntry()
	s.peer = widget.NewEntry()
	s.peer.SetPlaceHolder("http://192.168.1.10:8520")
	s.token = widget.NewPasswordEntry()
	s.pin = widget.NewEntry()
	s.pin.SetPlaceHolder(tr("setup.fingerprint_hint"))
	s.dsn = widget.NewEntry()
	s.dsn.SetPlaceHolder("sqlserver://user:pass@host:1433?database=jiaohao")
	s.branch = widget.NewEntry()
	s.branch.SetPlaceHolder(tr("setup.branch_hint"))
	s.printer = widget.NewEntry()
	s.printer.SetPlaceHolder(tr("setup.printer_hint"))
	s.led = widget.NewEntry()
	s.led.SetPlaceHolder("led+serial://COM4?encoding=gb2312")
	s.lang = widget.NewSelect(texts(langLabels), nil)
	s.layout = widget.NewSelect(texts(layoutLabels()), nil)
	s.media = widget.NewEntry()
	s.media.SetPlaceHolder(`D:\hall\pictures`)
	s.area = widget.NewEntry()
	s.area.SetPlaceHolder(tr("setup.hall_area_hint"))
	s.msg = widget.NewLabel("")
	s.msg.Importance = widget.DangerImportance
	s.msg.Wrapping = fyne.TextWrapWord
	s.msg.Hide()
	s.save = widget.NewButton(tr("setup.save"), s.submit)
	s.save.Importance = widget.HighImportance
	s.demo = widget.NewButton(tr("setup.demo"), func() {
		if s.onDemo != nil {
			s.onDemo()
		}
	})

	s.fill(cfg)

	row := func(key string, o fyne.CanvasObject) *fyne.Container {
		return container.NewBorder(nil, nil, widget.NewLabel(tr(key)), nil, o)
	}
	s.windowRow = row("setup.window", s.window)
	s.peerRows = container.NewVBox(row("setup.peer", s.peer), row("setup.token", s.token), row("setup.fingerprint", s.pin))
	s.dbR = container.NewVBox(row("setup.dsn", s.dsn), row("setup.branch", s.branch))
	s.printerRow = row("setup.printer", s.printer)
	s.hallRows = container.NewVBox(row("setup.hall_layout", s.layout), row("setup.media_dir", s.media), row("setup.hall_area", s.area))
	title := widget.NewLabelWithStyle(tr("setup.title"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	demoCard := widget.NewCard(tr("setup.demo_title"), tr("setup.demo_hint"), s.demo)
	form := container.NewVBox(title,
		widget.NewLabel(tr("setup.role")), s.role, s.windowRow,
		widget.NewLabel(tr("setup.mode")), s.mode, s.peerRows, s.dbR,
		s.printerRow, s.hallRows, row("setup.led", s.led),
		row("setup.lang", s.lang), s.msg, s.save)
	if files := s.fileButtons(); files != nil {
		form.Add(files)
	}
	s.content = container.NewVScroll(container.NewPadded(container.NewVBox(demoCard, form)))
	s.arrange()
}

// fill shows cfg in the form.
func (s *Setup) fill(cfg SetupValues) {
	s.role.SetSelected(textOf(roleLabels(), string(cfg.Role)))
	s.mode.SetSelected(textOf(modeLabels(), cfg.Mode))
	s.window.SetText(strconv.Itoa(cfg.Window))
	s.peer.SetText(cfg.Peer)
	s.token.SetText(cfg.Token)
	s.pin.SetText(cfg.PeerFingerprint)
	s.dsn.SetText(cfg.DSN)
	s.branch.SetText(cfg.Branch)
	s.printer.SetText(cfg.Printer)
	s.led.SetText(cfg.LED)
	s.lang.SetSelected(textOf(langLabels, cfg.Lang))
	s.layout.SetSelected(textOf(layoutLabels(), string(cfg.HallLayout)))
	s.media.SetText(cfg.Media)
	s.hotkeys = cfg.Hotkeys
	s.area.SetText(cfg.HallArea)
}

// arrange shows only the fields the chosen role and mode need.
func (s *Setup) arrange() {
	if s.windowRow == nil {
		return // still building
	}
	show := func(o fyne.CanvasObject, on bool) {
		if on {
			o.Show()
		} else {
			o.Hide()
		}
	}
	mode := valueOf(modeLabels(), s.mode.Selected)
	r, role := roleOf(s.role.Selected)
	show(s.windowRow, role.Window)
	show(s.hallRows, r == model.RoleScreen)
	show(s.printerRow, role.Printer || role.OwnPrinter)
	show(s.peerRows, mode == ModePeer)
	show(s.dbR, mode == ModeDB)
}

// Values are what the form says now.
func (s *Setup) Values() SetupValues {
	n, _ := strconv.Atoi(strings.TrimSpace(s.window.Text))
	role, _ := roleOf(s.role.Selected)
	return SetupValues{
		Role:            role,
		Mode:            valueOf(modeLabels(), s.mode.Selected),
		Window:          n,
		Peer:            strings.TrimSpace(s.peer.Text),
		Token:           strings.TrimSpace(s.token.Text),
		PeerFingerprint: strings.TrimSpace(s.pin.Text),
		DSN:             strings.TrimSpace(s.dsn.Text),
		Branch:          s.branchCode(),
		Lang:            valueOf(langLabels, s.lang.Selected),
		Printer:         s.kioskPrinter(),
		LED:             strings.TrimSpace(s.led.Text),
		HallLayout:      s.hallLayout(),
		Media:           s.hallMedia(),
		Hotkeys:         s.hotkeys,
		HallArea:        s.hallArea(),
	}
}

// hallLayout and hallMedia are the hall's fields when the PC is a hall
// screen: another role has none to save.
func (s *Setup) hallLayout() model.HallLayout {
	if r, _ := roleOf(s.role.Selected); r != model.RoleScreen {
		return ""
	}
	return model.HallLayout(valueOf(layoutLabels(), s.layout.Selected))
}

func (s *Setup) hallMedia() string {
	if r, _ := roleOf(s.role.Selected); r != model.RoleScreen {
		return ""
	}
	return strings.TrimSpace(s.media.Text)
}

func (s *Setup) hallArea() string {
	if r, _ := roleOf(s.role.Selected); r != model.RoleScreen {
		return ""
	}
	return strings.TrimSpace(s.area.Text)
}

// branchCode is the branch field as a code, upper case as the database
// keeps it; a peer's token names its branch, so it has none.
func (s *Setup) branchCode() string {
	if valueOf(modeLabels(), s.mode.Selected) == ModePeer {
		return ""
	}
	return strings.ToUpper(strings.TrimSpace(s.branch.Text))
}

// kioskPrinter is the printer field when the role prints tickets (the
// kiosk, and a window for the numbers it takes): other roles print none,
// and a hidden field must not block saving.
func (s *Setup) kioskPrinter() string {
	if _, role := roleOf(s.role.Selected); !role.Printer && !role.OwnPrinter {
		return ""
	}
	return strings.TrimSpace(s.printer.Text)
}

func (s *Setup) submit() {
	cfg := s.Values()
	if err := s.keep.Keep(cfg); err != nil {
		s.msg.SetText(errText(err))
		s.msg.Show()
		return
	}
	s.msg.Hide()
	if s.onDone != nil {
		s.onDone(cfg)
	}
}
