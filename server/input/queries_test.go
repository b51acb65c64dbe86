package input

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/internal/await"
)

// screenOut is a program's output that a test reads while it is written.
type screenOut struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *screenOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *screenOut) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// echoModel shows the last key pressed.
type echoModel struct{ last string }

func (m *echoModel) Init() tea.Cmd { return nil }

func (m *echoModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if k.String() == "q" {
			return m, tea.Quit
		}
		m.last = k.String()
	}
	return m, nil
}

func (m *echoModel) View() tea.View { return tea.NewView("last key: " + m.last) }

// Bubble Tea reads no input of its own here, so it would not ask the
// terminal whether it has synchronized output: the keyboard asks, and a
// terminal that answers yes gets its frames inside synchronized updates,
// as it did when Bubble Tea asked.
func TestTheKeyboardAsksTheTerminalAndBubbleTeaHearsTheAnswer(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	out := &screenOut{}
	in := New(context.Background(), r, 0, nil, nil)
	p := tea.NewProgram(&echoModel{}, tea.WithOutput(in.Terminal(out)), tea.WithWindowSize(40, 5), tea.WithoutSignalHandler(),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}), in.Option())
	in.Start(p)
	ran := make(chan error, 1)
	go func() { _, err := p.Run(); ran <- err }()
	defer func() {
		w.Write([]byte("q"))
		if err := await.Recv(t, waitLong, "the program to quit on q", ran); err != nil {
			t.Error(err)
		}
	}()
	await.Until(t, waitLong, "the terminal's queries and the first frame", func() bool {
		s := out.String()
		return strings.Contains(s, "\x1b[?2026$p") && strings.Contains(s, "\x1bP+q524742\x1b\\") && strings.Contains(s, "last key:")
	})
	if strings.Contains(out.String(), "\x1b[?2026h") {
		t.Fatal("synchronized output before the terminal said it has it")
	}
	// The terminal's answer (DECRPM: mode 2026 known, reset), then a key.
	w.Write([]byte("\x1b[?2026;2$y"))
	w.Write([]byte("x"))
	await.Until(t, waitLong, "the key's frame", func() bool { return strings.Contains(out.String(), "x") })
	if s := out.String(); !strings.Contains(s, "\x1b[?2026h") {
		t.Errorf("the frame after the answer is not a synchronized update: %q", s)
	}
}

// altModel is echoModel on the alternate screen.
type altModel struct{ echoModel }

func (m *altModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.echoModel.Update(msg)
	return m, cmd
}

func (m *altModel) View() tea.View {
	v := m.echoModel.View()
	v.AltScreen = true
	return v
}

// A session that ends before its queries were drawn (a script piping
// "\rq" into ssh -tt ends within a frame's interval) must not write them
// after it has left the alternate screen: the terminal would answer into
// the player's shell, on the screen they came back to. The renderer here
// draws once a second and the keyboard starts after the first frame, so a
// query queued for the next frame (as Bubble Tea queues them) would wait
// for a frame that never comes and be written at the end.
func TestQueriesQueuedAtTheEndAreWrittenBeforeTheTerminalIsRestored(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	out := &screenOut{}
	in := New(context.Background(), r, 0, nil, nil)
	p := tea.NewProgram(&altModel{}, tea.WithOutput(in.Terminal(out)), tea.WithWindowSize(40, 5), tea.WithoutSignalHandler(),
		tea.WithEnvironment([]string{"TERM=xterm-256color"}), tea.WithFPS(1), in.Option())
	ran := make(chan error, 1)
	go func() { _, err := p.Run(); ran <- err }()
	await.Until(t, waitLong, "the first frame", func() bool { return strings.Contains(out.String(), "last key:") })
	in.Start(p) // the queries reach the program after its first frame
	w.Write([]byte("q"))
	if err := await.Recv(t, waitLong, "the program to quit on q", ran); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	q, restored := strings.Index(s, "\x1b[?2026$p"), strings.LastIndex(s, "\x1b[?1049l")
	if q < 0 || restored < 0 {
		t.Fatalf("want the queries and the alternate screen's end, got %q", s)
	}
	if q > restored {
		t.Errorf("the queries were written after the terminal was restored: %q", s[restored:])
	}
}
