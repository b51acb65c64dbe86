package input

import (
	"bytes"
	"testing"
)

// The queries go in front of the first write, unless that write already
// leaves the alternate screen (nobody would read the answers).
func TestTheKeyboardModesAreAskedOnTheAlternateScreenAndUndoneBeforeLeavingIt(t *testing.T) {
	on, off := string(altScreenOn), string(altScreenOff)
	for _, tc := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"a frame without the alternate screen", []string{"hello"}, queries + "hello"},
		{"entering, drawing, leaving", []string{"q" + on + "frame", "more", "bye" + off + "after"},
			queries + "q" + on + keyboardModes + "frame" + "more" + "bye" + keyboardReset + off + "after"},
		{"in and out in one write", []string{on + "x" + off}, on + keyboardModes + "x" + keyboardReset + off},
		{"leaving without having entered", []string{off + "x"}, off + "x"},
		{"twice", []string{on, off, on, off}, queries + on + keyboardModes + keyboardReset + off + on + keyboardModes + keyboardReset + off},
		{"a cursor shape set on the way", []string{on, "\x1b[1 q@", off}, queries + on + keyboardModes + "\x1b[1 q@" + keyboardReset + cursorDefault + off},
	} {
		var out bytes.Buffer
		w := (&Keyboard{}).Terminal(&out)
		for _, s := range tc.writes {
			if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
				t.Fatalf("%s: Write(%q) = %d, %v", tc.name, s, n, err)
			}
		}
		if out.String() != tc.want {
			t.Errorf("%s: wrote %q, want %q", tc.name, out.String(), tc.want)
		}
	}
}

// fakeTTY is a terminal file: Read, Write, Close, Fd.
type fakeTTY struct{ bytes.Buffer }

func (*fakeTTY) Close() error { return nil }
func (*fakeTTY) Fd() uintptr  { return 7 }

func TestTheTerminalOfATerminalFileIsStillOne(t *testing.T) {
	if _, ok := (&Keyboard{}).Terminal(&fakeTTY{}).(ttyFile); !ok {
		t.Error("a terminal file wrapped is no longer one: Bubble Tea would treat a real PTY as a plain writer")
	}
}
