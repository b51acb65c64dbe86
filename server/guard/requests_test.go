package guard

import (
	"context"
	"testing"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game/tui"
)

// waitLong is the deadline of a wait for something that should come at
// once: long enough for a loaded CI machine, short of go test's timeout.
const waitLong = 10 * time.Second

func TestAResizeFloodReachesTheProgramAsAFewSizesTheNewestLast(t *testing.T) {
	w := newWindows()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sizes := make(chan ssh.Window)
	const every = 20 * time.Millisecond
	go deliverWindows(ctx, w, sizes, every)
	start := time.Now()
	go func() {
		for i := range 100000 {
			if i%2 == 0 {
				w.Set(ssh.Window{Width: tui.MaxWidth, Height: tui.MaxHeight})
			} else {
				w.Set(ssh.Window{Width: 80, Height: 24})
			}
		}
		w.Set(ssh.Window{Width: 100, Height: 30})
	}()
	var got []ssh.Window
	for last := (ssh.Window{}); last.Width != 100; {
		select {
		case last = <-sizes:
			got = append(got, last)
		case <-time.After(waitLong):
			t.Fatalf("the newest size never arrived; got %d sizes", len(got))
		}
	}
	most := 2 + int(time.Since(start)/every)
	t.Logf("100,001 sizes set, %d delivered", len(got))
	if len(got) > most {
		t.Errorf("%d sizes delivered in %v, want at most one per %v (%d)", len(got), time.Since(start), every, most)
	}
}

func TestPtyAndWindowSizesAreClamped(t *testing.T) {
	pty := gossh.Marshal(struct {
		Term               string
		Cols, Rows, PW, PH uint32
		Modes              string
	}{"xterm", 4096, 4096, 1, 2, "\x00"})
	p, win, ok := clampPtyReq(pty)
	if !ok || win.Width != tui.MaxWidth || win.Height != tui.MaxHeight || win.WidthPixels != 1 {
		t.Errorf("pty-req clamped to %+v (ok %v)", win, ok)
	}
	var back struct {
		Term               string
		Cols, Rows, PW, PH uint32
		Modes              string
	}
	if err := gossh.Unmarshal(p, &back); err != nil || back.Cols != tui.MaxWidth || back.Rows != tui.MaxHeight || back.Term != "xterm" || back.Modes != "\x00" {
		t.Errorf("rewritten pty-req %+v, %v", back, err)
	}
	if _, _, ok := clampPtyReq([]byte{0, 0, 0, 200, 'x'}); ok {
		t.Error("a truncated pty-req was accepted")
	}
	if win, ok := parseWindowChange(gossh.Marshal(struct{ C, R, PW, PH uint32 }{1 << 31, 24, 0, 0}), defaultWindow()); !ok || win.Width != tui.MaxWidth || win.Height != 24 {
		t.Errorf("window-change clamped to %+v (ok %v)", win, ok)
	}
}
