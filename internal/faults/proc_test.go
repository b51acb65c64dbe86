package faults

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{} // closed and replaced at each Write
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// next returns the text so far and a channel closed at the next Write.
func (s *syncBuffer) next() (string, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed == nil {
		s.changed = make(chan struct{})
	}
	return s.b.String(), s.changed
}

// anyPort is the SSH address of a grotto whose address the test reads
// back from its log (proc.addr) once it listens: for a process that is
// never restarted on its address.
const anyPort = "127.0.0.1:0"

// held are the loopback sockets the tests keep (heldAddr), by address:
// a duplicate of each listener's descriptor, handed to every grotto that
// serves that address.
var held sync.Map // string → *os.File

// heldAddr listens on a loopback port for the rest of the test and
// returns its address. A grotto that start runs with it as the value of
// --listen (its addr), --http, --metrics, --cluster-listen or --pprof
// serves that socket, handed over as systemd does (socket activation):
// after kill -9 the next grotto serves the same address, connections made
// in between wait in the socket's queue, and the port is never free for
// another program to take.
func heldAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	held.Store(addr, f)
	t.Cleanup(func() {
		held.Delete(addr)
		f.Close()
		ln.Close()
	})
	return addr
}

// socketNames are grotto's names for the sockets systemd may pass it
// (cmd/grotto/sockets.go), by the flag whose address each serves.
var socketNames = map[string]string{"--listen": "ssh", "--http": "http", "--metrics": "metrics", "--cluster-listen": "node", "--pprof": "pprof"}

// listeningRE is the line grotto logs once it accepts players, with the
// address it listens on.
var listeningRE = regexp.MustCompile(`grotto is listening addr=(\S+)`)

// start runs grotto on addr (heldAddr's, or anyPort) with data dir and
// extra flags, and waits until it logs that it listens (or exits). Every
// flag whose address is held is served on the held socket.
func start(t *testing.T, addr, data string, extra ...string) *proc {
	t.Helper()
	return startBin(t, bin, addr, data, extra...)
}

// startBin is start running the grotto binary at path program instead of
// the one built for this run (another build of grotto: deploy_test.go).
func startBin(t *testing.T, program, addr, data string, extra ...string) *proc {
	t.Helper()
	args := append([]string{"serve", "--listen", addr, "--data", data, "--conn-rate", "10000"}, extra...)
	var files []*os.File
	var names []string
	for i := 0; i+1 < len(args); i++ {
		if name, ok := socketNames[args[i]]; ok {
			if f, ok := held.Load(args[i+1]); ok {
				files, names = append(files, f.(*os.File)), append(names, name)
			}
		}
	}
	cmd := exec.Command(program, args...)
	if len(files) > 0 {
		// systemd's protocol (sd_listen_fds(3)): the sockets from fd 3 on,
		// their count and names, and LISTEN_PID naming the process they
		// are for, which only the process itself knows before it runs
		// grotto: sh sets it to its own pid and execs grotto in its place
		// (as systemd-socket-activate does).
		cmd = exec.Command("/bin/sh", append([]string{"-c", `LISTEN_PID=$$ exec "$0" "$@"`, program}, args...)...)
		cmd.ExtraFiles = files
		cmd.Env = append(os.Environ(), fmt.Sprintf("LISTEN_FDS=%d", len(files)), "LISTEN_FDNAMES="+strings.Join(names, ":"))
	}
	p := &proc{cmd: cmd, addr: addr, stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd.Stderr = p.stderr
	p.cmd.WaitDelay = exitDelay
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.cmd.Process.Kill(); p.reap(t) })
	deadline := time.After(10 * time.Second)
	for {
		log, changed := p.stderr.next()
		if m := listeningRE.FindStringSubmatch(log); m != nil {
			p.addr = m[1]
			return p
		}
		select {
		case <-changed:
		case <-p.done:
			return p // exited: the caller checks why
		case <-deadline:
			t.Fatalf("grotto did not start within 10 s:\n%s", p.stderr)
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

// exitDelay is each grotto's exec.Cmd.WaitDelay: how long after the
// process has ended its Wait may still wait for the rest of its log (the
// pipe stays open while anything holds its write end). With it a killed
// process is reaped within killReaped.
const (
	exitDelay  = 5 * time.Second
	killReaped = 2 * exitDelay
)

// kill9 kills the process with SIGKILL and waits until it is reaped,
// failing t after killReaped.
func (p *proc) kill9(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGKILL)
	select {
	case <-p.done:
	case <-time.After(killReaped):
		t.Fatalf("grotto not reaped %v after kill -9:\n%s", killReaped, p.stderr)
	}
}

// reap is the test's cleanup of a process it has just killed: it waits
// until it is reaped, as kill9 does, and reports a process that is not.
func (p *proc) reap(t *testing.T) {
	select {
	case <-p.done:
	case <-time.After(killReaped):
		t.Errorf("grotto not reaped %v after it was killed at the test's end:\n%s", killReaped, p.stderr)
	}
}

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

// connect dials as p and gets to a game (see enter), failing t if that
// does not work. From a goroutine other than the test's, use tryConnect.
func (p *player) connect(t *testing.T, addr string) string {
	t.Helper()
	screen, err := p.tryConnect(addr)
	if err != nil {
		t.Fatal(err)
	}
	return screen
}

// tryConnect is connect returning its error, for a goroutine other than
// the test's (where t.Fatal would end only that goroutine). p.c is set
// once the dial succeeds.
func (p *player) tryConnect(addr string) (string, error) {
	c, err := sshtest.Dial(addr, p.key, sshtest.Options{Width: 100, Height: 30, User: p.name})
	if err != nil {
		return "", fmt.Errorf("%s: %w", p.name, err)
	}
	p.c = c
	// A server restarted after kill -9 on PostgreSQL is a new holder of
	// the key's lease: the key resumes by itself (no title) once the dead
	// process's claim lapses.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	screen, err := c.WaitFor(ctx, func(s string) bool { return atTitle(s) || inGame(s) })
	if err != nil {
		return "", fmt.Errorf("%s: %w; the screen:\n%s", p.name, err, c.Screen())
	}
	return p.tryEnter(screen)
}

// enter takes p from the first screen of their session (the name screen
// or the title) into a game: naming themselves and starting one the first
// time, choosing Continue after. A screen already in a game is returned as
// it is.
func (p *player) enter(t *testing.T, screen string) string {
	t.Helper()
	screen, err := p.tryEnter(screen)
	if err != nil {
		t.Fatal(err)
	}
	return screen
}

// tryEnter is enter returning its error (see tryConnect).
func (p *player) tryEnter(screen string) (string, error) {
	if inGame(screen) {
		return screen, nil
	}
	c := p.c
	var err error
	if strings.Contains(screen, "Choose the name") {
		c.Send("\r")
		if screen, err = c.WaitForText(30*time.Second, "New game"); err != nil {
			return "", fmt.Errorf("%s: %w", p.name, err)
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
		return "", fmt.Errorf("%s: %w", p.name, err)
	}
	return screen, nil
}

// step sends one key and waits until the screen answers it (or shows
// nothing new for a while: a refused move draws only a grey line).
func (p *player) step(t *testing.T, key string) {
	t.Helper()
	if err := p.tryStep(key); err != nil {
		t.Fatal(err)
	}
}

// tryStep is step returning its error (see tryConnect).
func (p *player) tryStep(key string) error {
	before := p.c.Screen()
	p.c.Send(key)
	// A bump into a wall leaves the screen as it was, so the wait is short;
	// a test whose next assertion needs the turn itself uses stepUntil.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	screen, err := p.c.WaitFor(ctx, func(s string) bool { return s != before })
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("%s: %w", p.name, err)
	}
	screen = settle(p.c)
	if n := turnOf(screen); n >= 0 {
		p.shown, p.around = n, around(screen)
	}
	return nil
}

// tryWait presses '.', which always plays a turn, and waits until the
// screen shows that turn (up to a minute: many players at once under the
// race detector on a loaded machine), then records it as shown. A wait on
// any change of the screen, as tryStep's, can take the rest of an earlier
// frame for the answer and record the turn before (one run of the README's
// command in ten, on a machine loaded by other tests: "saved at turn 1,
// screen showed 0").
func (p *player) tryWait() error {
	want := max(turnOf(p.c.Screen()), 0) + 1
	p.c.Send(".")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := p.c.WaitFor(ctx, func(s string) bool { return turnOf(s) >= want }); err != nil {
		return fmt.Errorf("%s: no turn %d after '.': %w", p.name, want, err)
	}
	screen := settle(p.c)
	p.shown, p.around = turnOf(screen), around(screen)
	return nil
}

// settle returns the screen once it has stopped changing for 60 ms: a frame
// can arrive in pieces, further apart on a loaded machine, and nothing
// marks a frame's end (the server does not use synchronized output with
// this terminal). It waits on the screen's changes, each starting the
// 60 ms again, and gives up after 100 of them (6 s of a screen that never
// rests); a session that ends is settled.
func settle(c *sshtest.Client) string {
	s := c.Screen()
	for range 100 {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
		now, err := c.WaitFor(ctx, func(now string) bool { return now != s })
		cancel()
		if err != nil {
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
