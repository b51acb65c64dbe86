// End-to-end tests: the client against an in-process wish server.

package sshtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/await"
)

const wait = 5 * time.Second

// serve starts a wish server on a free loopback port with the given
// middleware and returns its address. Any public key is accepted.
func serve(t *testing.T, mw ...wish.Middleware) string {
	t.Helper()
	hostKey, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := wish.NewServer(
		func(s *ssh.Server) error { s.AddHostKey(hostKey); return nil },
		wish.WithPublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
		wish.WithMiddleware(mw...),
	)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := srv.Serve(l); err != nil && !errors.Is(err, ssh.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		select {
		case <-served:
		case <-time.After(wait):
			t.Errorf("the server still serves %v after Close", wait)
		}
	})
	return l.Addr().String()
}

// counter is a Bubble Tea model that counts "j" presses, shows the window
// size and whether the terminal answered its background colour query, and
// quits on "q".
type counter struct {
	n, w, h int
	bg      string
}

func (m counter) Init() tea.Cmd { return tea.RequestBackgroundColor }

func (m counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch msg.String() {
		case "j":
			m.n++
		case "q":
			return m, tea.Quit
		}
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.bg = "light"
		if msg.IsDark() {
			m.bg = "dark"
		}
	}
	return m, nil
}

func (m counter) View() tea.View {
	v := tea.NewView(fmt.Sprintf("count: %d\nsize: %dx%d\nbg: %s", m.n, m.w, m.h, m.bg))
	v.AltScreen = true
	return v
}

func serveCounter(t *testing.T) string {
	t.Helper()
	return serve(t, bubbletea.Middleware(func(ssh.Session) (tea.Model, []tea.ProgramOption) {
		return counter{}, []tea.ProgramOption{tea.WithoutSignalHandler()}
	}))
}

func mustWaitText(t *testing.T, c *Client, substr string) string {
	t.Helper()
	screen, err := c.WaitForText(wait, substr)
	if err != nil {
		t.Fatal(err)
	}
	return screen
}

func TestKeysReachTheProgramAndTheScreenShowsTheResult(t *testing.T) {
	c := New(t, serveCounter(t), Options{})
	mustWaitText(t, c, "count: 0")
	for want := 1; want <= 3; want++ {
		if err := c.Send("j"); err != nil {
			t.Fatal(err)
		}
		mustWaitText(t, c, fmt.Sprintf("count: %d", want))
	}
	screen := c.Screen()
	if lines := strings.Split(screen, "\n"); len(lines) != DefaultHeight {
		t.Errorf("screen has %d lines, want %d:\n%s", len(lines), DefaultHeight, screen)
	}
	if !strings.HasPrefix(screen, "count: 3\n") {
		t.Errorf("screen does not start with the count:\n%s", screen)
	}
}

func TestTerminalQueriesAreAnswered(t *testing.T) {
	c := New(t, serveCounter(t), Options{})
	// The model asks for the background colour; only the emulator's reply,
	// forwarded to stdin, can produce this line.
	mustWaitText(t, c, "bg: dark")
}

func TestResizeReachesTheProgram(t *testing.T) {
	c := New(t, serveCounter(t), Options{Width: 60, Height: 20})
	mustWaitText(t, c, "size: 60x20")
	if err := c.Resize(100, 30); err != nil {
		t.Fatal(err)
	}
	screen := mustWaitText(t, c, "size: 100x30")
	if lines := strings.Split(screen, "\n"); len(lines) != 30 {
		t.Errorf("screen has %d lines after resize, want 30", len(lines))
	}
}

func TestWindowChangeReachesTheProgramAndLeavesTheScreen(t *testing.T) {
	c := New(t, serveCounter(t), Options{Width: 60, Height: 20})
	mustWaitText(t, c, "size: 60x20")
	if err := c.WindowChange(100, 30); err != nil {
		t.Fatal(err)
	}
	screen := mustWaitText(t, c, "size: 100x30")
	if lines := strings.Split(screen, "\n"); len(lines) != 20 {
		t.Errorf("screen has %d lines after a claimed size, want its own 20", len(lines))
	}
}

func TestQuittingEndsTheSessionWithStatusZero(t *testing.T) {
	c := New(t, serveCounter(t), Options{})
	mustWaitText(t, c, "count: 0")
	if err := c.Send("q"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-time.After(wait):
		t.Fatalf("session still running after q; screen:\n%s", c.Screen())
	}
	if err := c.Wait(); err != nil {
		t.Errorf("Wait() = %v, want nil", err)
	}
	if got := c.ExitStatus(); got != 0 {
		t.Errorf("ExitStatus() = %d, want 0", got)
	}
	if _, err := c.WaitForText(wait, "never shown"); !errors.Is(err, ErrSessionEnded) {
		t.Errorf("WaitForText after the end = %v, want ErrSessionEnded", err)
	}
}

func TestWaitForTimeoutShowsTheScreen(t *testing.T) {
	c := New(t, serveCounter(t), Options{})
	mustWaitText(t, c, "count: 0")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := c.WaitFor(ctx, func(s string) bool { return strings.Contains(s, "count: 99") })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitFor = %v, want DeadlineExceeded", err)
	}
	if !strings.Contains(err.Error(), "count: 0") {
		t.Errorf("error does not include the screen: %v", err)
	}
}

func TestExecWithoutPTYGetsOutputAndExitStatus(t *testing.T) {
	addr := serve(t, func(ssh.Handler) ssh.Handler {
		return func(s ssh.Session) {
			if _, _, isPty := s.Pty(); isPty {
				_ = s.Exit(99)
				return
			}
			_, _ = fmt.Fprintf(s, "hello %s, you ran %q\n", s.User(), s.RawCommand())
			_, _ = fmt.Fprintln(s.Stderr(), "to stderr")
			_ = s.Exit(3)
		}
	})
	c := New(t, addr, Options{NoPTY: true, Command: "greet", User: "alice"})
	select {
	case <-c.Done():
	case <-time.After(wait):
		t.Fatalf("the command still runs after %v; output: %q", wait, c.Output())
	}

	var exit *gossh.ExitError
	if err := c.Wait(); !errors.As(err, &exit) || exit.ExitStatus() != 3 {
		t.Errorf("Wait() = %v, want exit status 3", err)
	}
	if got := c.ExitStatus(); got != 3 {
		t.Errorf("ExitStatus() = %d, want 3", got)
	}
	out := string(c.Output())
	for _, want := range []string{"hello alice, you ran \"greet\"\n", "to stderr\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("Output() = %q, want it to contain %q", out, want)
		}
	}
}

func TestCloseLeavesNoGoroutinesBehind(t *testing.T) {
	addr := serveCounter(t)
	before := runtime.NumGoroutine()

	key, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		c, err := Dial(addr, key, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitForText(wait, "bg: dark"); err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if err := c.Send("j"); err == nil {
			t.Error("Send after Close succeeded")
		}
		if got := c.ExitStatus(); got != -1 {
			t.Errorf("ExitStatus after Close = %d, want -1", got)
		}
	}

	// The server notices the closed connections asynchronously.
	var after int
	if !await.Within(wait, func() bool { after = runtime.NumGoroutine(); return after <= before }) {
		buf := make([]byte, 1<<20)
		t.Fatalf("goroutines: %d before, %d after Close\n%s",
			before, after, buf[:runtime.Stack(buf, true)])
	}
}
