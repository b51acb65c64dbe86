package faults

// The web port under a flood: many connections that
// send complete headers promising a body and then nothing, or nothing at
// all, from a few addresses, against a grotto with a low open-file limit.
// The SSH port must keep letting players in, the pages and /metrics must
// still answer, and no address may hold more than its cap.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// webProc is a grotto run with --http and --metrics, every address on
// port 0, read back from its log.
type webProc struct {
	*proc
	web, metrics string // host:port
}

var (
	sshAddrLine     = regexp.MustCompile(`grotto is listening.* addr=(\S+)`)
	webAddrLine     = regexp.MustCompile(`web pages are served.* addr=http://(\S+)`)
	metricsAddrLine = regexp.MustCompile(`serving Prometheus metrics.* addr=http://(\S+)/metrics`)
)

// startWeb runs grotto under `prlimit --nofile=nofile` on loopback port 0
// for SSH, the web pages and the metrics, with extra flags, and waits
// until its log names the three addresses.
func startWeb(t *testing.T, nofile int, extra ...string) *webProc {
	t.Helper()
	args := append([]string{"--nofile=" + strconv.Itoa(nofile), bin, "serve", "--listen", "127.0.0.1:0", "--data", t.TempDir(),
		"--http", "127.0.0.1:0", "--metrics", "127.0.0.1:0"}, extra...)
	p := &proc{cmd: exec.Command("prlimit", args...), stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd.Stderr = p.stderr
	p.cmd.WaitDelay = exitDelay
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.cmd.Process.Kill(); p.reap(t) })
	w := &webProc{proc: p}
	for deadline := time.Now().Add(30 * time.Second); ; {
		log := p.stderr.String()
		ssh, web, metrics := sshAddrLine.FindStringSubmatch(log), webAddrLine.FindStringSubmatch(log), metricsAddrLine.FindStringSubmatch(log)
		if ssh != nil && web != nil && metrics != nil {
			p.addr, w.web, w.metrics = ssh[1], web[1], metrics[1]
			return w
		}
		select {
		case <-p.done:
			t.Fatalf("grotto exited:\n%s", log)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("grotto did not say where it listens:\n%s", log)
		}
	}
}

// usage is what the process holds: open files, and resident memory (KB).
func (w *webProc) usage(t *testing.T) (fds int, rssKB int) {
	t.Helper()
	pid := w.cmd.Process.Pid
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rssKB, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return len(ents), rssKB
}

// from dials addr from the loopback address src (127.0.0.0/8 is all this
// machine's: each src is another client address to the server).
func from(src, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 10 * time.Second}
	return d.Dial("tcp", addr)
}

// slowBody is the attack: complete headers that promise a body which never
// comes.
const slowBody = "GET / HTTP/1.1\r\nHost: grotto\r\nContent-Length: 100000\r\n\r\n"

// readAll reads c until the server closes it, or fails the test after
// within; it returns what the server said.
func readAll(t *testing.T, c net.Conn, within time.Duration) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(within))
	said, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("a connection was still held after %v; it was told %q", within, said)
	}
	return string(said)
}

func TestAFloodedWebPortStillLetsPlayersInOverSSHAndAnswersPagesAndMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("needs prlimit (util-linux)")
	}
	const nofile, perAddr = 512, 20
	w := startWeb(t, nofile, "--max-conns-per-addr", strconv.Itoa(perAddr), "--conn-rate", "100000")
	fds0, rss0 := w.usage(t)

	// (d) One address holds at most its cap; the rest are told why. Each
	// connection asks for the front page: a held one is answered 200 and
	// kept open, a refused one 429 and closed.
	var held []net.Conn
	for range perAddr + 10 {
		c, err := from("127.0.0.2", w.web)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	refused := 0
	for _, c := range held {
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: grotto\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(30 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("a connection of one address was not answered: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusTooManyRequests && strings.Contains(string(body), "too many connections from your address"):
			refused++
		case resp.StatusCode != http.StatusOK:
			t.Errorf("a connection of one address: %d %q", resp.StatusCode, body)
		}
	}
	for _, c := range held {
		c.Close()
	}
	if admitted := len(held) - refused; admitted > perAddr || refused == 0 {
		t.Errorf("one address held %d web connections at once with --max-conns-per-addr %d (%d refused)", admitted, perAddr, refused)
	}

	// (a) Slow connections are closed by the server, soon.
	var slow []net.Conn
	for range 40 {
		c, err := from("127.0.0.3", w.web)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, slowBody)
		slow = append(slow, c)
	}
	stillHeld := 0
	deadline := time.Now().Add(30 * time.Second) // one for them all
	for _, c := range slow {
		c.SetReadDeadline(deadline)
		said, err := io.ReadAll(c)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			stillHeld++
		} else if !strings.HasPrefix(string(said), "HTTP/1.1 413 ") && !strings.HasPrefix(string(said), "HTTP/1.1 429 ") {
			t.Errorf("a connection that promised a body was told %q, want 413 (or 429 beyond its address's cap)", said)
		}
		c.Close()
	}
	if stillHeld > 0 {
		t.Errorf("%d of %d connections that promised a body and sent none were still held after 30 s", stillHeld, len(slow))
	}

	// The flood, held while the players come: 5 addresses, 120
	// connections each, which together are more than the process's open
	// files. Each connection sends the slow body or nothing at all, waits
	// for the server to close it, and comes back.
	f := startFlood(w, 10, 5, 120)
	defer f.stop()

	// (b) A player logs in over SSH and sees the title.
	sshPlayerLogsIn(t, w)

	// (c) A web page and /metrics answer.
	hc := &http.Client{Timeout: 30 * time.Second}
	for _, url := range []string{"http://" + w.web + "/", "http://" + w.metrics + "/metrics"} {
		resp, err := hc.Get(url)
		if err != nil {
			t.Errorf("%s during the web flood: %v", url, err)
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s during the web flood: %d", url, resp.StatusCode)
		}
	}
	fds, rss := w.usage(t)
	t.Logf("before the flood: %d files, %d KB resident; during it: %d files, %d KB; %d flood connections dialed, %d ended by the server; %d of %d refused from one address",
		fds0, rss0, fds, rss, f.dialed.Load(), f.ended.Load(), refused, len(held))
	if strings.Count(w.stderr.String(), "too many open files") > 0 {
		t.Errorf("the server ran out of open files:\n%s", tail(w.stderr.String()))
	}
}

// flood is connections to the web port, each sending the slow body (half
// of them) or nothing, waiting for the server to close it, and coming
// back, until stopped.
type flood struct {
	halt          chan struct{}
	wg            sync.WaitGroup
	dialed, ended atomic.Int64 // connections made; closed by the server
	mu            sync.Mutex
	live          map[net.Conn]bool // open now, closed by stop
}

// startFlood starts perAddr connections from each of addrs loopback
// addresses from 127.0.0.first on, and returns once each has been dialed
// once.
func startFlood(w *webProc, first, addrs, perAddr int) *flood {
	f := &flood{halt: make(chan struct{}), live: map[net.Conn]bool{}}
	var started sync.WaitGroup
	for a := range addrs {
		src := fmt.Sprintf("127.0.%d.%d", (first+a)/250, 1+(first+a)%250)
		for i := range perAddr {
			f.wg.Add(1)
			started.Add(1)
			go func() {
				defer f.wg.Done()
				for n := range 1000 { // bounded, and stopped with the test
					c, err := from(src, w.web)
					if n == 0 {
						started.Done()
					}
					if err == nil {
						f.dialed.Add(1)
						f.mu.Lock()
						f.live[c] = true
						f.mu.Unlock()
						if i%2 == 0 {
							io.WriteString(c, slowBody)
						}
						c.SetReadDeadline(time.Now().Add(2 * time.Minute))
						if _, err := io.Copy(io.Discard, c); err == nil {
							f.ended.Add(1)
						}
						f.mu.Lock()
						delete(f.live, c)
						f.mu.Unlock()
						c.Close()
					}
					select {
					case <-f.halt:
						return
					case <-time.After(250 * time.Millisecond): // the attacker's pace
					}
				}
			}()
		}
	}
	started.Wait()
	return f
}

// stop ends the flood and waits for it.
func (f *flood) stop() {
	close(f.halt)
	f.mu.Lock()
	for c := range f.live {
		c.Close()
	}
	f.mu.Unlock()
	f.wg.Wait()
}

// sshPlayerLogsIn checks that a new player gets the title over SSH.
func sshPlayerLogsIn(t *testing.T, w *webProc) {
	t.Helper()
	key, _ := sshtest.NewKey()
	pl := &player{key: key, name: "ssh-player"}
	c, err := dialAs(pl, w.addr)
	if err != nil {
		t.Errorf("an SSH player during the web flood: %v\n%s", err, tail(w.stderr.String()))
		return
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.WaitFor(ctx, atTitle); err != nil {
		t.Errorf("an SSH player during the web flood saw no title: %v; the screen:\n%s", err, c.Screen())
	}
}

// From many addresses, each within its cap, the flood is more than the
// web's share of open files (--http-max-conns by default): the web pages
// hold their share and refuse the rest, and SSH keeps the other half.
func TestAWebFloodFromManyAddressesLeavesSSHItsShareOfOpenFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("needs prlimit (util-linux)")
	}
	const nofile = 512
	w := startWeb(t, nofile, "--max-conns-per-addr", "20", "--conn-rate", "100000")
	f := startFlood(w, 20, 40, 20) // 800 connections, 20 from each of 40 addresses
	defer f.stop()
	sshPlayerLogsIn(t, w)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Get("http://" + w.metrics + "/metrics")
	if err != nil {
		t.Errorf("/metrics during the web flood: %v", err)
	} else {
		resp.Body.Close()
	}
	fds, rss := w.usage(t)
	t.Logf("during a flood of 800 connections from 40 addresses: %d files, %d KB resident; %d flood connections dialed, %d ended by the server", fds, rss, f.dialed.Load(), f.ended.Load())
	if fds >= nofile-64 {
		t.Errorf("the server holds %d files of its %d during a web flood", fds, nofile)
	}
	if strings.Contains(w.stderr.String(), "too many open files") {
		t.Errorf("the server ran out of open files:\n%s", tail(w.stderr.String()))
	}
}

// tail is the end of a log, for a failure.
func tail(log string) string {
	if len(log) > 3000 {
		return "…" + log[len(log)-3000:]
	}
	return log
}
