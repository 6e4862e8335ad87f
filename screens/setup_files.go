package screens

import (
	"errors"
	"fmt"
	"io"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
)

// maxSettingsFile bounds what import reads: the file is a few hundred bytes.
const maxSettingsFile = 64 << 10

func (s *Setup) fileButtons() fyne.CanvasObject {
	if s.files == nil || s.w == nil {
		return nil
	}
	export := widget.NewButton(tr("setup.export"), func() {
		d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
			if err != nil || wc == nil {
				return // cancelled
			}
			err = s.ExportTo(wc)
			if cerr := wc.Close(); err == nil {
				err = cerr
			}
			s.msg.SetText(errText(err))
		}, s.w)
		d.SetFileName("jiaohao-settings.json")
		d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
		d.Show()
	})
	imp := widget.NewButton(tr("setup.import"), func() {
		d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
			if err != nil || rc == nil {
				return
			}
			defer rc.Close()
			if err := s.ImportFrom(rc); err != nil {
				s.msg.SetText(errText(err))
				return
			}
			s.msg.SetText(tr("setup.imported"))
		}, s.w)
		d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
		d.Show()
	})
	return container.NewGridWithColumns(2, export, imp)
}

// ExportTo writes what the form says now as a settings file.
func (s *Setup) ExportTo(w io.Writer) error {
	if s.files == nil {
		return errors.New("no settings file codec")
	}
	b, err := s.files.Encode(s.Values())
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write settings file: %w", err)
	}
	return nil
}

// ImportFrom shows a settings file's values in the form; they are saved
// only by the save button, after the technician has checked them (the
// window number of this PC, say). A file that cannot be used changes
// nothing, in the form or in the preferences.
func (s *Setup) ImportFrom(r io.Reader) error {
	if s.files == nil {
		return errors.New("no settings file codec")
	}
	b, err := io.ReadAll(io.LimitReader(r, maxSettingsFile+1))
	if err != nil {
		return fmt.Errorf("read settings file: %w", err)
	}
	c, err := s.files.Decode(b)
	if err != nil {
		return err
	}
	s.fill(c)
	s.arrange()
	return nil
}
