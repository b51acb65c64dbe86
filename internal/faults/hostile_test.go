package faults

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/sshtest"
)

// attacker is a raw SSH session that sends whatever it likes.
type attacker struct {
	conn *gossh.Client
	sess *gossh.Session
	in   interface{ Write([]byte) (int, error) }
	out  *firstOutput
}

func attack(t *testing.T, addr string, w, h int) *attacker {
	t.Helper()
	key, _ := sshtest.NewKey()
	conn, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "mallory", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out := &firstOutput{came: make(chan struct{})}
	sess.Stdout, sess.Stderr = out, out
	in, _ := sess.StdinPipe()
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	return &attacker{conn: conn, sess: sess, in: in, out: out}
}

// firstOutput discards a session's output and closes came at its first
// byte: the session's program runs (every size, 0x0 and 1x1 included,
// draws something, if only the line asking for a larger terminal).
type firstOutput struct {
	once sync.Once
	came chan struct{}
}

func (f *firstOutput) Write(p []byte) (int, error) {
	f.once.Do(func() { close(f.came) })
	return len(p), nil
}

// started waits until the server has sent a's session its first output,
// failing t after 30 s.
func (a *attacker) started(t *testing.T) {
	t.Helper()
	select {
	case <-a.out.came:
	case <-time.After(30 * time.Second):
		t.Fatal("an attacker's session sent nothing in 30 s")
	}
}

func (a *attacker) send(s string) {
	done := make(chan struct{})
	go func() { a.in.Write([]byte(s)); close(done) }()
	select { // a flood may be throttled: never wait on it for long
	case <-done:
	case <-time.After(2 * time.Second):
	}
}

func (a *attacker) close() { a.conn.Close() }

func TestHostileClientsNeverHurtTheServerOrAnotherPlayer(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	onEachStore(t, hostileClients)
}

func hostileClients(t *testing.T, b backend) {
	rng := rand.New(rand.NewPCG(6, 6))
	p := b.start(t, anyPort, t.TempDir())
	victim := newPlayers(t, 1)[0]
	victim.connect(t, p.addr)
	victimPlays := func(what string) {
		t.Helper()
		before := victim.shown
		victim.step(t, ".")
		if victim.shown != before+1 {
			t.Fatalf("after %s the other player's wait went from turn %d to %d", what, before, victim.shown)
		}
		select {
		case <-p.done:
			t.Fatalf("the server died after %s:\n%s", what, p.stderr)
		default:
		}
	}
	random := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return string(b)
	}
	junk := random(64 << 10) // made once: the attackers below run at the same time
	attacks := []struct {
		name string
		w, h int
		do   func(a *attacker)
	}{
		{"random bytes", 80, 24, func(a *attacker) { a.send(junk) }},
		{"escape sequences split across writes", 80, 24, func(a *attacker) {
			for _, part := range []string{"\x1b", "[", "1;", "5", "A", "\x1b[", "<0;10;", "5M", "\x1bO", "P", "\x1b]11;rgb:", "0000/0000/0000", "\x1b\\"} {
				a.send(part)
				// The attack's own spacing, not a wait for anything: each
				// part in a packet of its own, a moment after the last, so
				// that the server's reads are likely to split the
				// sequences (nothing tells when it has read a part).
				await.Gap(time.Millisecond)
			}
		}},
		{"terminal query replies as input", 80, 24, func(a *attacker) {
			a.send("\x1b[?1;2c\x1b[>0;276;0c\x1b]11;rgb:0000/0000/0000\x07\x1b[?2026;2$y\x1bP1+r5463\x1b\\\x1b[12;40R\x1b[?64;1;2;6;22c")
		}},
		{"Ctrl+Z and other controls", 80, 24, func(a *attacker) { a.send("\x1a\x1a\x03\x1c\x00\x7f\x1b\x1b\x1b") }},
		{"a flood of megabytes", 80, 24, func(a *attacker) { a.send(strings.Repeat("jjjjhhhhkkkkllll", 1<<17)) }},
		{"window 0x0", 0, 0, func(a *attacker) { a.send("jjj") }},
		{"window 1x1", 1, 1, func(a *attacker) { a.send("jjj") }},
		{"window 65535x65535", 65535, 65535, func(a *attacker) { a.send("\r") }},
		{"a resize storm", 80, 24, func(a *attacker) {
			for i := range 2000 {
				a.sess.WindowChange(rng.IntN(300), rng.IntN(300))
				if i%500 == 0 {
					a.sess.WindowChange(65535, 65535)
				}
			}
		}},
		{"non-UTF-8", 80, 24, func(a *attacker) { a.send("\xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc") }},
		{"a client that vanishes mid-frame", 200, 60, func(a *attacker) {
			a.send("\r") // start drawing, then cut the connection under it
			a.conn.Close()
		}},
	}
	for _, at := range attacks {
		a := attack(t, p.addr, at.w, at.h)
		a.started(t) // the attack reaches a program that reads it
		at.do(a)
		// The attack's own timing, not a wait for anything: the attacker
		// lingers a moment before hanging up. No event says the server
		// has read and decoded what was sent before the close cuts it
		// off: the server counts no bytes read (no metric, no log line), a
		// flood is throttled (4 KB/s after 32 KB), junk can leave the
		// decoder inside a string that swallows any key sent after it,
		// and a 1x1 window draws no name, so no key sent after the attack
		// is sure to be drawn, as the marker name of input_test.go is.
		// The checks are not free for that: a crash the attack causes
		// later is still caught, by the next victimPlays, and by the log
		// and exit code checked at the end.
		await.Gap(50 * time.Millisecond)
		a.close()
		victimPlays(at.name)
	}
	// A dozen attackers at once, each doing everything.
	var as []*attacker
	for range 12 {
		as = append(as, attack(t, p.addr, 80, 24))
	}
	for _, a := range as {
		go func() {
			for _, at := range attacks[:5] {
				at.do(a)
			}
		}()
	}
	victimPlays("twelve attackers at once")
	for _, a := range as {
		a.close()
	}
	if strings.Contains(strings.ToLower(p.stderr.String()), "panic") {
		t.Errorf("the server log has a panic:\n%s", p.stderr)
	}
	p.sigterm()
	if code := p.exit(t, 10*time.Second); code != 0 {
		t.Errorf("exit %d after the attacks", code)
	}
}
