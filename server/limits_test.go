package server

import (
	"io"
	"strings"
	"testing"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/server/guard"
)

func TestSettingOneLimitLeavesTheOthersAtTheirDefaults(t *testing.T) {
	// Only the idle timeout is set: an address must still open the
	// default 20 sessions per 10 s, not 1.
	_, addr := serve(t, Config{Limits: Limits{IdleTimeout: time.Hour}})
	for i := range 3 {
		if out, status := command(t, addr, "who"); status != 0 || strings.Contains(out, "rate limit") {
			t.Fatalf("session %d from one address: status %d, %q; want the default %d per 10 s", i+1, status, out, DefaultLimits().ConnPer10s)
		}
	}
}

func TestEachZeroLimitGetsItsDefaultAndTheOthersAreKept(t *testing.T) {
	d := DefaultLimits()
	got := Limits{MaxSessions: 5}.withDefaults()
	want := d
	want.MaxSessions = 5
	want.IdleTimeout, want.MaxConnsPerAddr, want.SessionOpenTimeout = 0, 0, 0 // 0 turns these off
	if got != want {
		t.Errorf("only MaxSessions set:\n got %+v\nwant %+v", got, want)
	}
	if got := d.withDefaults(); got != d {
		t.Errorf("the defaults changed: %+v", got)
	}
}

func TestALimitOutOfRangeIsNamed(t *testing.T) {
	for flag, change := range map[string]func(*Limits){
		"--max-sessions":          func(l *Limits) { l.MaxSessions = -1 },
		"--conn-rate":             func(l *Limits) { l.ConnPer10s = -3 },
		"--input-rate":            func(l *Limits) { l.InputBytesPerSec = -1 },
		"--max-conns-per-addr":    func(l *Limits) { l.MaxConnsPerAddr = -1 },
		"--max-watchers":          func(l *Limits) { l.MaxWatchers = -1 },
		"--max-replays":           func(l *Limits) { l.MaxReplays = -1 },
		"--idle-timeout":          func(l *Limits) { l.IdleTimeout = -time.Second },
		"--idle-timeout below 1s": func(l *Limits) { l.IdleTimeout = time.Millisecond },
		"--session-open-timeout":  func(l *Limits) { l.SessionOpenTimeout = -time.Second },
		"--http-max-conns":        func(l *Limits) { l.MaxHTTPConns = -1 },
	} {
		l := DefaultLimits()
		change(&l)
		if err := l.validate(); err == nil || !strings.Contains(err.Error(), strings.Fields(flag)[0]) {
			t.Errorf("%s out of range: %v, want an error naming it", flag, err)
		}
	}
	if err := DefaultLimits().validate(); err != nil {
		t.Errorf("the defaults: %v", err)
	}
}

func TestTheSessionCapRefusesTheSessionPastItAndAdmitsOneWhenASeatFrees(t *testing.T) {
	release := make(chan struct{})
	hold := func(sess ssh.Session) {
		sess.Write([]byte(reached))
		select { // a failed test leaves without releasing: the session's end ends it too
		case <-release:
		case <-sess.Context().Done():
		}
	}
	addr := unitTo(t, hold, guard.New(guard.Config{MaxSessions: 2}).SessionCap())
	var held []*gossh.Session
	for range 2 {
		sess := login(t, addr, "x", newKey(t))
		out, err := sess.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(out, make([]byte, len(reached))); err != nil {
			t.Fatal(err)
		}
		held = append(held, sess)
	}
	_, errs, status := run(t, login(t, addr, "x", newKey(t)), "")
	if status != 1 || !strings.Contains(errs, "grotto is full (2 sessions)") {
		t.Errorf("the third session: status %d, %q; want refused as full", status, errs)
	}
	close(release)
	for _, s := range held {
		within(t, "a held session to end", func() { s.Wait() })
	}
	if out, _, status := run(t, login(t, addr, "x", newKey(t)), ""); status != 0 || out != reached {
		t.Errorf("after the two left: status %d, %q; want admitted", status, out)
	}
}

func TestTheRateLimitRefusesTheSessionPastItsBucket(t *testing.T) {
	addr := unit(t, guard.New(guard.Config{ConnPer10s: 2}).RateLimit())
	for i := range 3 {
		out, errs, status := run(t, login(t, addr, "x", newKey(t)), "")
		refused := status == 1 && strings.Contains(errs, "rate limit exceeded")
		if refused != (i == 2) {
			t.Errorf("session %d of 3 with a bucket of 2: status %d, %q %q", i+1, status, out, errs)
		}
	}
}

func TestTheWebPagesTakeAtMostHalfTheOpenFilesLeftSoSSHKeepsTheOtherHalf(t *testing.T) {
	for _, c := range []struct {
		nofile uint64
		want   int
	}{
		{1024, (1024 - fdReserve) / 2}, // a host that kept the usual soft limit
		{512, 128},
		{280, 16},        // tiny: still a few pages
		{0, 10000},       // unknown: the web's own default
		{1 << 20, 10000}, // plenty of files: memory is the limit
	} {
		if got := httpConnBudget(c.nofile); got != c.want {
			t.Errorf("an open-file limit of %d: %d web connections, want %d", c.nofile, got, c.want)
		}
	}
}
