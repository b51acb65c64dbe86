package faults

// SSH requests and connections that arrive before grotto's own limits:
// resizes before the shell, env floods, huge windows, idle connections.

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/internal/sshtest"
)

// heapMB reads the server's live heap from its --pprof endpoint (HeapAlloc
// after a collection, as runtime.MemStats reports it).
func heapMB(t *testing.T, pprof string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + pprof + "/debug/pprof/heap?debug=1&gc=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "# HeapAlloc = "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return n / (1 << 20)
		}
	}
	t.Fatal("no HeapAlloc in the heap profile")
	return 0
}

// rawSession is an authenticated session channel on which a test sends the
// requests it likes, in its order.
func rawSession(t *testing.T, addr string) (*gossh.Client, *gossh.Session, *strings.Builder) {
	t.Helper()
	key, _ := sshtest.NewKey()
	conn, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "mallory", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out := &strings.Builder{}
	var mu sync.Mutex
	sess.Stdout = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return out.Write(p) })
	return conn, sess, out
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestResizesAndEnvFloodsBeforeTheGameAreBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	onEachStore(t, resizesAndEnvFloods)
}

func resizesAndEnvFloods(t *testing.T, b backend) {
	pprof := heldAddr(t) // the profiler's own address is not logged: the test keeps its socket
	p := b.start(t, anyPort, t.TempDir(), "--pprof", pprof)
	base := heapMB(t, pprof)

	// A resize between pty-req and shell: the shell is still answered.
	_, sess, _ := rawSession(t, p.addr)
	if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	sess.WindowChange(30, 100)
	answered := make(chan error, 1)
	go func() { answered <- sess.Shell() }()
	select {
	case err := <-answered:
		if err != nil {
			t.Errorf("shell after an early resize: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("shell after an early resize was never answered")
	}

	// 100 variables of 200 KB on one channel, no PTY, no shell (a session
	// reads requests at 20 a second after a burst: few but large ones make
	// the flood quick to send).
	_, flood, _ := rawSession(t, p.addr)
	value := strings.Repeat("x", 200<<10)
	accepted := 0
	for i := range 100 {
		if flood.Setenv("V"+strconv.Itoa(i), value) == nil {
			accepted++
		}
	}
	envHeap := heapMB(t, pprof)
	t.Logf("env flood: %d of 100 accepted, heap %.1f -> %.1f MB", accepted, base, envHeap)
	if envHeap-base > 16 {
		t.Errorf("an env flood on one channel took the heap from %.1f to %.1f MB", base, envHeap)
	}

	// A window of 4096x256 after the first size, then back to 80x24, each
	// awaited until the server has drawn the name screen for it: centred
	// in 80 columns, then in the most it draws (tui.MaxWidth x MaxHeight,
	// what 4096x256 is clamped to), then in 80 again. The client's screen
	// is that largest size, so that every frame shows whole; it claims the
	// window sizes without being them.
	big := sshtest.New(t, p.addr, sshtest.Options{Width: tui.MaxWidth, Height: tui.MaxHeight,
		Claim: &sshtest.Size{Cols: 80, Rows: 24}, User: "mallory"})
	small := nameDrawn(t, big, "80x24", func(int) bool { return true })
	big.WindowChange(4096, 256)
	nameDrawn(t, big, "4096x256", func(col int) bool { return col > small })
	big.WindowChange(80, 24)
	nameDrawn(t, big, "80x24 again", func(col int) bool { return col == small })
	winHeap := heapMB(t, pprof)
	t.Logf("huge window: heap %.1f -> %.1f MB", envHeap, winHeap)
	if winHeap-envHeap > 64 {
		t.Errorf("one window of 4096x256 took the heap from %.1f to %.1f MB", envHeap, winHeap)
	}
	select {
	case <-p.done:
		t.Fatalf("the server died:\n%s", p.stderr)
	default:
	}
}

// nameDrawn waits until c's screen shows the name screen once, its
// "Choose the name" line at a column at which holds (the frame drawn for
// the window size named size), and returns that column. It fails t after
// 30 s.
func nameDrawn(t *testing.T, c *sshtest.Client, size string, at func(col int) bool) int {
	t.Helper()
	const line = "Choose the name"
	col := -1
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.WaitFor(ctx, func(s string) bool {
		if strings.Count(s, line) != 1 {
			return false
		}
		for l := range strings.Lines(s) {
			if i := strings.Index(l, line); i >= 0 {
				col = len([]rune(l[:i]))
			}
		}
		return at(col)
	})
	if err != nil {
		t.Fatalf("the name screen drawn for a window of %s: %v", size, err)
	}
	return col
}

func TestOneAddressHoldsFewConnectionsAndNoneWithoutASession(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	onEachStore(t, fewConnectionsPerAddress)
}

func fewConnectionsPerAddress(t *testing.T, b backend) {
	p := b.start(t, anyPort, t.TempDir(), "--max-conns-per-addr", "5", "--session-open-timeout", "1s", "--idle-timeout", "0")
	key, _ := sshtest.NewKey()
	cfg := &gossh.ClientConfig{User: "idler", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second}
	var held []*gossh.Client
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	refused := 0
	for range 50 {
		if c, err := gossh.Dial("tcp", p.addr, cfg); err == nil {
			held = append(held, c)
		} else {
			refused++
		}
	}
	if len(held) > 5 {
		t.Errorf("%d of 50 connections held from one address with --max-conns-per-addr 5", len(held))
	}
	raw, err := net.Dial("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	raw.SetReadDeadline(time.Now().Add(10 * time.Second))
	said, _ := io.ReadAll(raw)
	raw.Close()
	if !strings.Contains(string(said), "too many connections") {
		t.Errorf("a refused connection was told %q", said)
	}
	// None opened a session: all are closed after --session-open-timeout,
	// whatever --idle-timeout says.
	for _, c := range held {
		ended := make(chan struct{})
		go func() { c.Wait(); close(ended) }()
		select {
		case <-ended:
		case <-time.After(10 * time.Second):
			t.Fatal("a connection without a session was still open after 10 s")
		}
	}
	t.Logf("%d held, %d refused, all held ones closed for starting no session", len(held), refused)
}
