package lobby

import (
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"
)

// fakeConn answers keepalives, or never does (silent).
type fakeConn struct {
	silent   bool
	requests chan string
	mu       sync.Mutex
	closed   chan struct{}
	isClosed bool
}

func newConn(silent bool) *fakeConn {
	return &fakeConn{silent: silent, requests: make(chan string, 1000), closed: make(chan struct{})}
}

func (c *fakeConn) SendRequest(name string, wantReply bool, payload []byte) (bool, []byte, error) {
	select {
	case c.requests <- name:
	default:
	}
	if c.silent {
		<-c.closed // an unanswered request ends when the connection closes
		return false, nil, errors.New("closed")
	}
	return true, nil, nil
}

func (c *fakeConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.isClosed {
		c.isClosed = true
		close(c.closed)
	}
	return nil
}

func TestAConnectionLeavingThreeKeepalivesUnansweredIsClosed(t *testing.T) {
	m := NewMemory(nil)
	silent := newConn(true)
	s, _ := m.Claim(Holder{Key: "SHA256:silent", Conn: silent})
	defer s.Release()
	for range keepAliveMisses {
		m.keepAlive()
	}
	for range keepAliveMisses {
		recv(t, "a keepalive", silent.requests)
	}
	select {
	case <-silent.closed:
		t.Fatalf("closed after %d unanswered keepalives, before the next round", keepAliveMisses)
	default:
	}
	m.keepAlive()
	recv(t, "the round to close the connection", silent.closed)
}

func TestAConnectionThatAnswersIsNeverClosed(t *testing.T) {
	m := NewMemory(nil)
	answering := newConn(false)
	s, _ := m.Claim(Holder{Key: "SHA256:answering", Conn: answering})
	defer s.Release()
	for range 2 * keepAliveMisses {
		m.keepAlive()
		recv(t, "a keepalive", answering.requests)
		for missed, deadline := 1, time.Now().Add(waitLong); missed != 0; { // until the answer is counted
			if time.Now().After(deadline) {
				t.Fatalf("the keepalive's answer was not counted within %v", waitLong)
			}
			runtime.Gosched()
			m.mu.Lock()
			missed = s.(*slot).missed
			m.mu.Unlock()
		}
	}
	select {
	case <-answering.closed:
		t.Error("a connection that answers every keepalive was closed")
	default:
	}
}

func TestTheSweepSendsKeepalivesUntilStopped(t *testing.T) {
	m := NewMemory(nil)
	c := newConn(false)
	s, _ := m.Claim(Holder{Key: "SHA256:a", Conn: c})
	defer s.Release()
	stop := make(chan struct{})
	ended := make(chan struct{})
	go func() { m.Sweep(time.Millisecond, 0, stop); close(ended) }()
	if name := recv(t, "a keepalive", c.requests); name != "keepalive@openssh.com" {
		t.Errorf("request %q", name)
	}
	close(stop)
	recv(t, "the sweep to stop", ended)
}

func TestTheSweepAsksEverySlotWhetherItIsIdle(t *testing.T) {
	m := NewMemory(nil)
	pe, se := newEvents(), newEvents()
	m.Claim(Holder{Key: "SHA256:a", Notifier: pe})
	m.Spectate(Holder{Key: "SHA256:a", Notifier: se})
	stop := make(chan struct{})
	defer close(stop)
	go m.Sweep(time.Hour, time.Millisecond, stop)
	if e := pe.next(); e != IdleCheck {
		t.Errorf("player told %v", e)
	}
	if e := se.next(); e != IdleCheck {
		t.Errorf("spectator told %v", e)
	}
}

func TestTheIdleCheckNeverTicksFasterThanOnceASecond(t *testing.T) {
	// A tiny idle timeout must not spin a core: the sweep wakes at most
	// once a second (and at least once a minute).
	for idle, want := range map[time.Duration]time.Duration{
		time.Nanosecond:  time.Second,
		time.Millisecond: time.Second,
		5 * time.Second:  5 * time.Second,
		time.Hour:        time.Minute,
	} {
		if got := idleCheckEvery(idle); got != want {
			t.Errorf("idle timeout %v: checked every %v, want %v", idle, got, want)
		}
	}
}

func TestRelistReachesTheSessionsWithNoGameOpenOnly(t *testing.T) {
	// A session on the title shows the live games and reads them again
	// when told; one in a game shows no list and is never woken for it.
	m := NewMemory(nil)
	playing, title, spectator := newEvents(), newEvents(), newEvents()
	p, _ := m.Claim(Holder{Key: "SHA256:a", Notifier: playing})
	defer p.Release()
	p.Publish(Activity{Doing: Playing}, 2, 40, "", nil)
	s, _ := m.Claim(Holder{Key: "SHA256:b", Notifier: title})
	defer s.Release()
	sp, _ := m.Spectate(Holder{Key: "SHA256:a", Notifier: spectator})
	defer sp.Release()

	m.relist()
	if e := title.next(); e != Relist {
		t.Errorf("the session on the title was told %v, want relist", e)
	}
	if e := spectator.next(); e != Relist {
		t.Errorf("the spectator was told %v, want relist", e)
	}
	select {
	case e := <-playing:
		t.Errorf("the session in a game was told %v", e)
	default:
	}
}
