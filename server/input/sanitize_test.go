package input

import (
	"strings"
	"testing"
	"time"
)

// sanitize runs the sanitizer over chunks, each arriving gap after the
// previous one, and ends the input after the last.
func sanitize(gap time.Duration, chunks ...string) string {
	var s sanitizer
	var out []byte
	now := time.Unix(0, 0)
	for _, c := range chunks {
		out = s.expire(out, now)
		for i := range len(c) {
			out = s.step(out, c[i], now)
		}
		now = now.Add(gap)
	}
	return string(s.end(s.expire(out, now)))
}

func TestTheSanitizerPassesWhatTerminalsSendAndDropsTheRest(t *testing.T) {
	seps := strings.Repeat(";", 32)
	for _, c := range []struct {
		name   string
		chunks []string
		want   string
	}{
		{"keys and controls pass as they are", []string{"hjkl.\r\x03\x7f\t"}, "hjkl.\r\x03\x7f\t"},
		{"arrows, SS3 and modified arrows pass", []string{"\x1b[A\x1bOB\x1b[1;5C"}, "\x1b[A\x1bOB\x1b[1;5C"},
		{"SGR mouse and kitty keys pass", []string{"\x1b[<0;10;5M\x1b[97;5u"}, "\x1b[<0;10;5M\x1b[97;5u"},
		{"xterm's device attributes pass", []string{"\x1b[?64;1;2;6;9;15;16;17;18;21;22;28;29c"}, "\x1b[?64;1;2;6;9;15;16;17;18;21;22;28;29c"},
		{"a colour reply passes", []string{"\x1b]11;rgb:1a1a/2b2b/3c3c\x1b\\"}, "\x1b]11;rgb:1a1a/2b2b/3c3c\x1b\\"},
		{"a capability reply passes", []string{"\x1bP1+r5463=74727565\x1b\\"}, "\x1bP1+r5463=74727565\x1b\\"},
		{"UTF-8 passes, broken UTF-8 and raw C1 do not", []string{"\xc3\xa9\xff\x9b\xe2\x82x"}, "\xc3\xa9x"},
		{"the 35 bytes are nothing, and the next final byte ends them", []string{"\x1b[" + seps + "0", "qj"}, "j"},
		{"a DCS with 32 separators is nothing", []string{"\x1bP" + seps + "0q\x1b\\j"}, "j"},
		{"a CSI over 64 bytes is nothing", []string{"\x1b[" + strings.Repeat("1", 70) + "m", "j"}, "j"},
		{"an OSC over its bound is nothing", []string{"\x1b]11;" + strings.Repeat("x", maxStringBytes) + "\a", "j"}, "j"},
		{"a reply cut in two arrives whole", []string{"\x1b]11;rgb:1a1a/", "2b2b/3c3c\x1b\\"}, "\x1b]11;rgb:1a1a/2b2b/3c3c\x1b\\"},
		{"a CSI cut after ESC [ arrives whole", []string{"\x1b[", "<0;1;1M"}, "\x1b[<0;1;1M"},
		{"a lone ESC is the Esc key, written so nothing can join it", []string{"\x1b", "[A"}, escKey + "[A"},
		{"two ESCs are two Esc keys", []string{"\x1b\x1b"}, escKey + escKey},
		{"Alt+x passes", []string{"\x1bx"}, "\x1bx"},
		{"a win32-input key record is nothing, whatever its repeat count", []string{"\x1b[190;52;46;1;0;300_."}, "."},
		{"Alt+space is dropped: ESC SP would join what follows", []string{"\x1b [" + seps + "0"}, "[" + seps + "0"},
		{"CAN cancels a string", []string{"\x1b]11;rgb\x18j"}, "j"},
		{"ESC cancels a string and begins anew", []string{"\x1b]11;rgb\x1b[A"}, "\x1b[A"},
		{"a string left open is dropped after a while", []string{"\x1bP", "", "j"}, "j"},
	} {
		gap := 10 * time.Millisecond
		if c.name == "a lone ESC is the Esc key, written so nothing can join it" {
			gap = escWait
		}
		if c.name == "a string left open is dropped after a while" {
			gap = seqWait
		}
		if got := sanitize(gap, c.chunks...); got != c.want {
			t.Errorf("%s: %q gives %q, want %q", c.name, c.chunks, got, c.want)
		}
	}
}
