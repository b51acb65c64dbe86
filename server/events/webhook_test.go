package events

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
)

// receiver is a webhook receiver the test controls: it records the IDs
// of the events it took, in order.
type receiver struct {
	mu   sync.Mutex
	ids  []string
	hold chan struct{} // nil, or closed when the receiver may answer
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	e, err := Parse(body)
	if err != nil || req.Header.Get("Idempotency-Key") != e.ID || req.Header.Get("Content-Type") != "application/json" {
		http.Error(w, "not an event", http.StatusBadRequest)
		return
	}
	if r.hold != nil {
		<-r.hold
	}
	r.mu.Lock()
	r.ids = append(r.ids, e.ID)
	r.mu.Unlock()
}

func (r *receiver) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ids...)
}

func serveOn(t *testing.T, addr string, h http.Handler) *httptest.Server {
	t.Helper()
	var ln net.Listener
	var err error
	if !await.Within(10*time.Second, func() bool { ln, err = net.Listen("tcp", addr); return err == nil }) {
		t.Fatalf("listen %s again: %v", addr, err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	return srv
}

func idsUpTo(n int) string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("t-%d", i))
	}
	return fmt.Sprint(out)
}

// TestAWebhookReceiverGetsEveryEventOnceInOrderAcrossItsRestart: the
// receiver stops mid-stream; the events made meanwhile are retried, not
// lost, and once it is back it has each event once, in order.
func TestAWebhookReceiverGetsEveryEventOnceInOrderAcrossItsRestart(t *testing.T) {
	rcv := &receiver{}
	srv := serveOn(t, "127.0.0.1:0", rcv)
	addr := srv.Listener.Addr().String()
	w := NewWebhook(srv.URL, WebhookOptions{MinBackoff: 5 * time.Millisecond, MaxBackoff: 50 * time.Millisecond})
	defer w.Close()
	for i := 1; i <= 5; i++ {
		w.Post(ev(i))
	}
	await.Until(t, 10*time.Second, "the receiver has the first five", func() bool { return len(rcv.got()) == 5 })
	srv.Close() // the receiver goes away
	for i := 6; i <= 10; i++ {
		w.Post(ev(i))
	}
	await.Until(t, 10*time.Second, "posts failing while the receiver is away", func() bool { return w.Failures() >= 2 })
	srv = serveOn(t, addr, rcv) // back, at the same address
	defer srv.Close()
	await.Until(t, 10*time.Second, "the receiver has all ten", func() bool { return len(rcv.got()) >= 10 })
	// The receiver records an event before its answer reaches the
	// webhook, which counts the post then: wait for that too (a run
	// under load read "sent 9, queued 1").
	await.Until(t, 10*time.Second, "the webhook to count the tenth", func() bool { return w.Queued() == 0 })
	if got := fmt.Sprint(rcv.got()); got != idsUpTo(10) {
		t.Errorf("the receiver got %s, want each once in order: %s", got, idsUpTo(10))
	}
	if w.Sent() != 10 || w.Queued() != 0 || w.Dropped() != 0 {
		t.Errorf("sent %d, queued %d, dropped %d; want 10, 0, 0", w.Sent(), w.Queued(), w.Dropped())
	}
}

// TestAStuckReceiverCostsPostNothingAndTheOldestEventsAreDropped: Post
// returns at once however long the receiver takes; past the queue's
// bound the oldest waiting events go, counted.
func TestAStuckReceiverCostsPostNothingAndTheOldestEventsAreDropped(t *testing.T) {
	rcv := &receiver{hold: make(chan struct{})}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	w := NewWebhook(srv.URL, WebhookOptions{Queue: 5, MinBackoff: time.Millisecond})
	defer w.Close()
	for i := 1; i <= 20; i++ {
		w.Post(ev(i)) // would hang the test if it waited for the receiver
	}
	if w.Queued() != 5 || w.Dropped() != 15 {
		t.Fatalf("queued %d, dropped %d; want 5 and 15", w.Queued(), w.Dropped())
	}
	close(rcv.hold)
	await.Until(t, 10*time.Second, "the queue posted", func() bool { return w.Queued() == 0 })
	got := rcv.got()
	if tail := fmt.Sprint(got[len(got)-5:]); tail != "[t-16 t-17 t-18 t-19 t-20]" {
		t.Errorf("the receiver got %v; want the newest five last, in order", got)
	}
}

// TestAnEventTheReceiverRefusesForGoodDoesNotHoldUpTheRest: a 400 drops
// that event (counted) and the next goes on.
func TestAnEventTheReceiverRefusesForGoodDoesNotHoldUpTheRest(t *testing.T) {
	rcv := &receiver{}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	w := NewWebhook(srv.URL, WebhookOptions{MinBackoff: time.Millisecond})
	defer w.Close()
	w.Post(Event{V: 99, ID: "bad", Kind: KindStart}) // Parse refuses its version: 400
	w.Post(ev(1))
	await.Until(t, 10*time.Second, "the good event posted", func() bool { return len(rcv.got()) == 1 })
	if w.Rejected() != 1 || rcv.got()[0] != "t-1" {
		t.Errorf("rejected %d, got %v", w.Rejected(), rcv.got())
	}
}
