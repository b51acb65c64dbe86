package input

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store/storetest"
)

// FuzzSessionInput feeds arbitrary bytes, as a client would type them,
// through the input path of a session: grotto's real model in a real Bubble
// Tea program reading through the sanitizer and the decoder, until every
// byte is read. A panic in any goroutine ends the fuzzing process, which
// fails it; so does a panic the decoder's recover caught, since the
// sanitizer alone must stop them.
//
// GROTTO_FUZZ_RAW=1 takes the sanitizer and the recover away, as before
// the input path was defended: the fuzzer then finds by itself the 35
// bytes that crashed the server (ESC [, 32 semicolons, 0 in one write).
func FuzzSessionInput(f *testing.F) {
	for _, seed := range []string{
		"jjjhhkkll..",
		"\x15abc\r",                    // Ctrl+U and a name
		"n\x1b[A\x1b[B\x1bOA\x1b[1;5C", // arrows, SS3 and modified
		"\x1b[<0;10;5M\x1b[<0;10;5m",   // SGR mouse
		"\x1b[97;5u\x1b[27u",           // kitty keyboard
		"\x1b[97:65;2;97:98:99:100:101:102:103:104:105:106:107:108:109:110:111:112:113:114:115:116u", // kitty, with its text
		"\x1b[200~pasted\x1b[201~", // bracketed paste
		"\x1b]11;rgb:1a1a/2b2b/3c3c\x1b\\\x1b]10;rgb:ffff/ffff/ffff\a",
		"\x1bP1+r5463=74727565\x1b\\\x1b[?64;1;2;6;9;15;16;17;18;21;22;28;29c",
		"\x1b[?2026;2$y\x1b[12;40R",
		"\x1bx\x1b\r\x1b",          // Alt keys and Esc
		"\xc3\xa9\xe2\x82\xac\xff", // UTF-8 and not
		"n;\x1b",                   // look mode, left with Esc
	} {
		f.Add([]byte(seed))
	}
	st := storetest.TempBolt(f)
	raw := os.Getenv("GROTTO_FUZZ_RAW") != ""
	f.Fuzz(func(t *testing.T, data []byte) {
		in := New(context.Background(), bytes.NewReader(data), 0, nil, nil)
		in.raw = raw
		p, _ := program(st, in)
		ran := make(chan error, 1)
		go func() { _, err := p.Run(); ran <- err }()
		select {
		case <-in.Consumed():
			p.Quit()
			select {
			case <-ran:
			case <-time.After(waitLong):
				p.Kill()
				t.Fatalf("the program had not quit %v after reading %q", waitLong, data)
			}
		case <-ran: // the bytes quit the program
		case <-time.After(waitLong):
			p.Kill()
			t.Fatalf("the program had not read %q after %v", data, waitLong)
		}
		if n := in.Panics(); n > 0 {
			t.Fatalf("the decoder panicked %d times on %q behind the sanitizer", n, data)
		}
	})
}
