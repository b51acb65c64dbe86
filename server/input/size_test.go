package input

import (
	"context"
	"io"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// sizeRecorder is a Bubble Tea model that notes every window size it is
// given and quits on q.
type sizeRecorder struct {
	mu    *sync.Mutex
	sizes *[]tea.WindowSizeMsg
}

func (r sizeRecorder) Init() tea.Cmd { return nil }

func (r sizeRecorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		r.mu.Lock()
		*r.sizes = append(*r.sizes, msg)
		r.mu.Unlock()
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			return r, tea.Quit
		}
	}
	return r, nil
}

func (r sizeRecorder) View() tea.View { return tea.NewView("") }

// TestAClientsBytesNeverResizeTheScreen: a window-size report typed by the
// client (CSI 8;rows;cols t, CSI 48;rows;cols;ph;pw t), which ultraviolet
// decodes into a window size, must not reach the program: the window size is
// the SSH channel's, clamped. Before the fix one write of "\x1b[8;1000;1024t"
// made Bubble Tea's renderer allocate 1024x1000 cells (221 MB), and 12
// clients ran a server out of memory.
func TestAClientsBytesNeverResizeTheScreen(t *testing.T) {
	var mu sync.Mutex
	var sizes []tea.WindowSizeMsg
	r, w := io.Pipe()
	defer w.Close()
	in := New(context.Background(), r, 0, nil, nil)
	p := tea.NewProgram(sizeRecorder{mu: &mu, sizes: &sizes}, tea.WithOutput(io.Discard), tea.WithWindowSize(100, 30),
		tea.WithoutSignalHandler(), tea.WithEnvironment([]string{"TERM=xterm-256color"}), in.Option())
	in.Start(p)
	ran := make(chan error, 1)
	go func() { _, err := p.Run(); ran <- err }()
	w.Write([]byte("\x1b[8;1000;1024t\x1b[48;300;2000;0;0t\x1b[4;9000;9000t"))
	// The q comes after the reports, and the program takes its messages in
	// order: once it has quit on the q, any size the reports made has
	// reached it.
	w.Write([]byte("q"))
	select {
	case <-ran:
	case <-time.After(waitLong):
		p.Kill()
		t.Fatal("the program did not quit")
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range sizes {
		if s.Width != 100 || s.Height != 30 {
			t.Errorf("the client's bytes resized the program to %dx%d", s.Width, s.Height)
		}
	}
}
