package scripts

import (
	"bytes"
	"debug/pe"
	"encoding/binary"
	"fmt"
	"testing"
	"unicode/utf16"
)

// Resource types of the PE format.
const (
	rtGroupIcon = 14
	rtVersion   = 16
)

func TestWindowsExeEmbedsVersion(t *testing.T) {
	want := fyneApp(t)
	exe := distFile(t, "jiaohao-*-windows-amd64.exe")
	f, err := pe.Open(exe)
	if err != nil {
		t.Fatalf("%s is not a Windows executable: %v", exe, err)
	}
	defer f.Close()
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		t.Errorf("machine %#x, want amd64", f.Machine)
	}
	if oh, ok := f.OptionalHeader.(*pe.OptionalHeader64); !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		t.Errorf("not a 64-bit GUI program (no console window must open on a kiosk)")
	}

	res := resources(t, f)
	if len(res[rtGroupIcon]) == 0 {
		t.Error("no icon embedded")
	}
	if len(res[rtVersion]) == 0 {
		t.Fatal("no version resource embedded")
	}
	vi := res[rtVersion][0]
	if got := fixedFileVersion(t, vi); got != want.version {
		t.Errorf("file version %s, want %s (FyneApp.toml Version.Build)", got, want.version)
	}
	for key, val := range map[string]string{"ProductVersion": want.version, "ProductName": want.name, "FileDescription": want.name} {
		if got := versionString(vi, key); got != val {
			t.Errorf("%s is %q, want %q", key, got, val)
		}
	}
}

// resources reads the .rsrc section's tree (type / name / language) and
// returns the data of every leaf by type.
func resources(t *testing.T, f *pe.File) map[uint32][][]byte {
	t.Helper()
	sec := f.Section(".rsrc")
	if sec == nil {
		t.Fatal("no .rsrc section: nothing is embedded")
	}
	data, err := sec.Data()
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint32][][]byte{}
	var walk func(off uint32, depth int, typ uint32) error
	walk = func(off uint32, depth int, typ uint32) error {
		if int(off)+16 > len(data) || depth > 3 {
			return fmt.Errorf("resource directory at %#x is out of bounds", off)
		}
		n := int(binary.LittleEndian.Uint16(data[off+12:])) + int(binary.LittleEndian.Uint16(data[off+14:]))
		for i := 0; i < n; i++ {
			e := int(off) + 16 + 8*i
			if e+8 > len(data) {
				return fmt.Errorf("resource entry at %#x is out of bounds", e)
			}
			id, to := binary.LittleEndian.Uint32(data[e:]), binary.LittleEndian.Uint32(data[e+4:])
			if depth == 0 {
				typ = id
			}
			if to&0x80000000 != 0 {
				if err := walk(to&0x7fffffff, depth+1, typ); err != nil {
					return err
				}
				continue
			}
			if int(to)+8 > len(data) {
				return fmt.Errorf("resource data entry at %#x is out of bounds", to)
			}
			rva, size := binary.LittleEndian.Uint32(data[to:]), binary.LittleEndian.Uint32(data[to+4:])
			start := int(rva) - int(sec.VirtualAddress)
			if start < 0 || start+int(size) > len(data) {
				return fmt.Errorf("resource data at RVA %#x is outside .rsrc", rva)
			}
			out[typ] = append(out[typ], data[start:start+int(size)])
		}
		return nil
	}
	if err := walk(0, 0, 0); err != nil {
		t.Fatal(err)
	}
	return out
}

// fixedFileVersion reads VS_FIXEDFILEINFO's dwFileVersionMS/LS.
func fixedFileVersion(t *testing.T, vi []byte) string {
	t.Helper()
	i := bytes.Index(vi, []byte{0xbd, 0x04, 0xef, 0xfe}) // signature 0xFEEF04BD
	if i < 0 || i+16 > len(vi) {
		t.Fatal("version resource has no VS_FIXEDFILEINFO")
	}
	ms, ls := binary.LittleEndian.Uint32(vi[i+8:]), binary.LittleEndian.Uint32(vi[i+12:])
	return fmt.Sprintf("%d.%d.%d.%d", ms>>16, ms&0xffff, ls>>16, ls&0xffff)
}

// versionString finds a String of the StringFileInfo block: its key in
// UTF-16 with a NUL, padding to 32 bits, then the value up to a NUL.
func versionString(vi []byte, key string) string {
	k := utf16le(key + "\x00")
	i := bytes.Index(vi, k)
	if i < 0 {
		return ""
	}
	j := (i + len(k) + 3) &^ 3
	var u []uint16
	for ; j+1 < len(vi); j += 2 {
		c := binary.LittleEndian.Uint16(vi[j:])
		if c == 0 {
			break
		}
		u = append(u, c)
	}
	return string(utf16.Decode(u))
}

func utf16le(s string) []byte {
	var b []byte
	for _, c := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	return b
}
