package input

import (
	"context"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/session"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/storetest"
)

// crasher is the 35 bytes that, in one write, killed the whole server:
// x/ansi's DecodeSequence indexes its 32 parameters with the 33rd.
// waitLong bounds every wait on a program.
const waitLong = 10 * time.Second

const crasher = "\x1b[;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;0"

// program is grotto's real model in a real Bubble Tea program whose keys
// come through a session's input path from r.
func program(st store.Store, in *Keyboard) (*tea.Program, *tui.Model) {
	play := session.New(session.Config{Fingerprint: "SHA256:input", Saves: st, Scores: st, Profiles: st,
		Quarantine: st, NewSeed: func() uint64 { return 3 }})
	m := tui.New(tui.Player{Name: "typist", Play: play})
	p := tea.NewProgram(m, tea.WithOutput(io.Discard), tea.WithWindowSize(100, 30), tea.WithoutSignalHandler(),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}), in.Option())
	in.Start(p)
	return p, m
}

func TestThe35BytesThatKilledTheServerAreReadAsNothing(t *testing.T) {
	if len(crasher) != 35 {
		t.Fatalf("the crasher is %d bytes", len(crasher))
	}
	r, w := io.Pipe()
	defer w.Close()
	in := New(context.Background(), r, 0, nil, nil)
	p, m := program(storetest.TempBolt(t), in)
	ran := make(chan error, 1)
	go func() { _, err := p.Run(); ran <- err }()
	// One write, as the attacker sent it: an io.Pipe write returns once
	// the keyboard has read it, and the keys after it come in a read of
	// their own, as they would after a pause. No wait is needed.
	w.Write([]byte(crasher))
	// The first q ends the sequence the 35 bytes began (it is its final
	// byte, as in a terminal); the second is the title screen's quit.
	w.Write([]byte("qq"))
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitLong):
		p.Kill()
		t.Fatal("the program did not take the key after the 35 bytes")
	}
	if m.Exit() != tui.ExitQuit {
		t.Errorf("exit %v, want the player's quit", m.Exit())
	}
	if n := in.Panics(); n != 0 {
		t.Errorf("the decoder panicked %d times behind the sanitizer", n)
	}
}
