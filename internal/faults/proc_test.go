package faults

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/keys"
)

// bin is the grotto binary built for this run.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "grotto-faults")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "grotto")
	build := exec.Command("go", "build", "-o", bin, "github.com/grotto-game/grotto/cmd/grotto")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build grotto:", err)
		os.Exit(1)
	}
	code := pgtest.Run(m) // stops the PostgreSQL the postgres runs started
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is one grotto server process.
type proc struct {
	cmd    *exec.Cmd
	addr   string
	stderr *syncBuffer
	done   chan struct{}
	err    error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start runs grotto on addr with data dir and extra flags, and waits until
// it accepts connections (or exits).
func start(t *testing.T, addr, data string, extra ...string) *proc {
	t.Helper()
	args := append([]string{"serve", "--listen", addr, "--data", data, "--conn-rate", "10000"}, extra...)
	p := &proc{cmd: exec.Command(bin, args...), addr: addr, stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.done })
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return p
		}
		select {
		case <-p.done:
			return p // exited: the caller checks why
		case <-time.After(20 * time.Millisecond):
		}
		if i > 500 {
			t.Fatalf("grotto did not start:\n%s", p.stderr)
		}
	}
}

// exit waits for the process to end and returns its exit code.
func (p *proc) exit(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(within):
		t.Fatalf("grotto still running after %v:\n%s", within, p.stderr)
	}
	if ee, ok := p.err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return 0
}

func (p *proc) kill9()   { p.cmd.Process.Signal(syscall.SIGKILL); <-p.done }
func (p *proc) sigterm() { p.cmd.Process.Signal(syscall.SIGTERM) }

// player is one player's key and what their screen last showed.
type player struct {
	key    gossh.Signer
	name   string
	c      *sshtest.Client
	shown  int      // the turn on screen after the last key whose answer was drawn
	around string   // the 5x5 tiles round the @ then
	flight bool     // a key was sent whose answer was not seen
	died   bool     // the screen showed the game over when the server was killed
	via    []string // what the player went through to come back (arrive), for the log
}

func turnOf(screen string) int { return sshtest.Turn(screen) }

func around(screen string) string { return sshtest.Around(screen) }

// connect dials as p and gets to a game (see enter).
func (p *player) connect(t *testing.T, addr string) string {
	t.Helper()
	c, err := sshtest.Dial(addr, p.key, sshtest.Options{Width: 100, Height: 30, User: p.name})
	if err != nil {
		t.Fatal(err)
	}
	p.c = c
	// A server restarted after kill -9 on PostgreSQL is a new holder of
	// the key's lease: the key resumes by itself (no title) once the dead
	// process's claim lapses.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	screen, err := c.WaitFor(ctx, func(s string) bool { return atTitle(s) || inGame(s) })
	if err != nil {
		t.Fatalf("%s: %v; the screen:\n%s", p.name, err, c.Screen())
	}
	return p.enter(t, screen)
}

// enter takes p from the first screen of their session (the name screen
// or the title) into a game: naming themselves and starting one the first
// time, choosing Continue after. A screen already in a game is returned as
// it is.
func (p *player) enter(t *testing.T, screen string) string {
	t.Helper()
	if inGame(screen) {
		return screen
	}
	c := p.c
	var err error
	if strings.Contains(screen, "Choose the name") {
		c.Send("\r")
		if screen, err = c.WaitForText(30*time.Second, "New game"); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Contains(screen, "Continue") {
		c.Send("c")
	} else {
		c.Send("n")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if screen, err = c.WaitFor(ctx, inGame); err != nil {
		t.Fatal(err)
	}
	return screen
}

// step sends one key and waits until the screen answers it (or shows
// nothing new for a while: a refused move draws only a grey line).
func (p *player) step(t *testing.T, key string) {
	t.Helper()
	before := p.c.Screen()
	p.c.Send(key)
	// A bump into a wall leaves the screen as it was, so the wait is short;
	// a test whose next assertion needs the turn itself uses stepUntil.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	screen, err := p.c.WaitFor(ctx, func(s string) bool { return s != before })
	if err != nil && ctx.Err() == nil {
		t.Fatal(err)
	}
	screen = settle(p.c)
	if n := turnOf(screen); n >= 0 {
		p.shown, p.around = n, around(screen)
	}
}

// settle returns the screen once it has stopped changing for 60 ms: a frame
// can arrive in pieces, further apart on a loaded machine.
func settle(c *sshtest.Client) string {
	s := c.Screen()
	for range 100 {
		time.Sleep(60 * time.Millisecond)
		now := c.Screen()
		if now == s {
			return s
		}
		s = now
	}
	return s
}

func keyFP(p *player) string { return keys.Fingerprint(p.key.PublicKey()) }

// dialAs connects as p with a terminal, without choosing anything yet.
func dialAs(p *player, addr string) (*sshtest.Client, error) {
	return sshtest.Dial(addr, p.key, sshtest.Options{Width: 100, Height: 30, User: p.name})
}
