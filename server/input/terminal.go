package input

import (
	"bytes"
	"io"
	"regexp"
	"sync"

	"github.com/charmbracelet/x/ansi"
)

// The keyboard enhancements Bubble Tea asks a terminal for when it reads
// the input itself (cursed_renderer.go: modifyOtherKeys 2 and the kitty
// keyboard protocol's "disambiguate" flag, pushed once it is on the
// alternate screen, popped before it leaves). With them Esc arrives at
// once instead of after escWait, and Ctrl+digits and Alt+keys arrive
// unambiguous, on terminals that have them (kitty, foot, WezTerm, ghostty
// for the kitty protocol; xterm for modifyOtherKeys). A program made with
// Option reads no input of its own, so Bubble Tea writes neither: the
// keyboard's Terminal does, around the alternate screen Bubble Tea enters
// and leaves, so that they are undone on every way out that leaves it.
const (
	keyboardModes = ansi.SetModifyOtherKeys2 + "\x1b[>1u"  // ansi.PushKittyKeyboard(1)
	keyboardReset = ansi.ResetModifyOtherKeys + "\x1b[<1u" // ansi.PopKittyKeyboard(1)
)

var (
	altScreenOn  = []byte(ansi.SetModeAltScreenSaveCursor)
	altScreenOff = []byte(ansi.ResetModeAltScreenSaveCursor)
)

// Terminal wraps w, the output of the program this keyboard serves: its
// first write (the first frame) carries the terminal's queries in front of
// it (see queries); right after Bubble Tea enters the alternate screen it asks for the keyboard
// enhancements, and right before it leaves it undoes them, and puts back
// the user's cursor shape if the program changed it (look and aim modes
// show a block: Bubble Tea v2.1.1 leaves it set on the way out). Bubble
// Tea writes each of those sequences whole within one write.
//
// When w is a terminal file (a real PTY's side: Read, Write, Close, Fd),
// so is what Terminal returns, so that Bubble Tea treats it as it would
// the file itself.
func (in *Keyboard) Terminal(w io.Writer) io.Writer {
	t := &terminal{w: w}
	if f, ok := w.(ttyFile); ok {
		return &terminalFile{terminal: t, f: f}
	}
	return t
}

// ttyFile is a terminal file as Bubble Tea recognises one (term.File).
type ttyFile interface {
	io.ReadWriteCloser
	Fd() uintptr
}

// terminalFile is a terminal over a ttyFile.
type terminalFile struct {
	*terminal
	f ttyFile
}

func (t *terminalFile) Read(p []byte) (int, error) { return t.f.Read(p) }
func (t *terminalFile) Close() error               { return t.f.Close() }
func (t *terminalFile) Fd() uintptr                { return t.f.Fd() }

// terminal is Keyboard.Terminal's writer.
type terminal struct {
	w      io.Writer
	mu     sync.Mutex
	on     bool // the enhancements were asked for and not yet undone
	shaped bool // the program set the cursor's shape (DECSCUSR) since
	asked  bool // the first write went out, with the queries before it
}

// cursorShape begins DECSCUSR, CSI Ps SP q, as Bubble Tea writes it
// (ansi.SetCursorStyle); cursorDefault is its "the user's default".
var (
	cursorShape   = regexp.MustCompile(`\x1b\[[0-9]+ q`)
	cursorDefault = "\x1b[0 q"
)

func (t *terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.shaped && bytes.Contains(p, []byte(" q")) && cursorShape.Match(p) {
		t.shaped = true
	}
	out, changed := t.rewrite(p)
	if !t.asked {
		// The program's first write, its first frame: the terminal's
		// queries go before it, so they are never written after the
		// program has restored the terminal (a program that ends before
		// it drew anything asks nothing; one whose first write already
		// leaves the alternate screen would hear no answer).
		t.asked = true
		if !bytes.Contains(p, altScreenOff) {
			out, changed = append([]byte(queries), out...), true
		}
	}
	if !changed {
		return t.w.Write(p)
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// rewrite returns p with the keyboard's modes after each entry to the
// alternate screen and their reset before each exit from it, and whether
// it added anything.
func (t *terminal) rewrite(p []byte) ([]byte, bool) {
	var out []byte
	changed := false
	for {
		on, off := bytes.Index(p, altScreenOn), bytes.Index(p, altScreenOff)
		switch {
		case on >= 0 && (off < 0 || on < off):
			end := on + len(altScreenOn)
			out = append(append(out, p[:end]...), keyboardModes...)
			p, t.on, changed = p[end:], true, true
		case off >= 0 && t.on:
			out = append(append(out, p[:off]...), keyboardReset...)
			if t.shaped {
				out, t.shaped = append(out, cursorDefault...), false
			}
			out = append(out, altScreenOff...)
			p, t.on, changed = p[off+len(altScreenOff):], false, true
		case off >= 0:
			out = append(out, p[:off+len(altScreenOff)]...)
			p = p[off+len(altScreenOff):]
		default:
			return append(out, p...), changed
		}
	}
}
