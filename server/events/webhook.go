package events

// This file is the outgoing webhook (--events-webhook): every event this
// node made is POSTed to one URL, in order, each retried until the
// receiver takes it. Post only appends to a bounded queue, so a slow or
// dead receiver never slows a game: when the queue is full its oldest
// event is dropped (and counted).

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Webhook defaults (WebhookOptions).
const (
	DefaultWebhookQueue   = 1000             // events waiting to be posted before the oldest is dropped
	DefaultWebhookTimeout = 10 * time.Second // one POST, from dial to the response's status
	DefaultMinBackoff     = 250 * time.Millisecond
	DefaultMaxBackoff     = 30 * time.Second
)

// WebhookOptions tune a Webhook; each zero field takes its default.
type WebhookOptions struct {
	Queue      int           // events kept waiting at most (DefaultWebhookQueue)
	Timeout    time.Duration // one POST (DefaultWebhookTimeout)
	MinBackoff time.Duration // the wait after a first failure, doubled after each (DefaultMinBackoff)
	MaxBackoff time.Duration // the longest wait between two tries (DefaultMaxBackoff)
	Client     *http.Client  // nil: a client of its own
}

// Webhook posts events to one URL from one goroutine: each event's line
// (Event.Line) as the body of a POST, Content-Type application/json, its
// ID also in the Idempotency-Key header. An answer 2xx takes the event
// off the queue; anything else (no answer, a 5xx, 408, 429) is tried
// again after a backoff that doubles from MinBackoff to MaxBackoff, the
// same event until it is taken, so events arrive in order. A receiver
// that lost an answer gets that event again: it dedupes by ID. A 4xx
// other than 408 and 429 says the receiver will never take it: the event
// is dropped (counted in Rejected) rather than holding up the ones after.
type Webhook struct {
	url  string
	opt  WebhookOptions
	stop chan struct{}
	done chan struct{}
	wake chan struct{} // one slot: the queue has something

	mu    sync.Mutex
	queue []Event

	sent, dropped, rejected, failures atomic.Uint64
}

// NewWebhook starts posting to url (an absolute http or https URL);
// Close stops it.
func NewWebhook(url string, opt WebhookOptions) *Webhook {
	if opt.Queue <= 0 {
		opt.Queue = DefaultWebhookQueue
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultWebhookTimeout
	}
	if opt.MinBackoff <= 0 {
		opt.MinBackoff = DefaultMinBackoff
	}
	if opt.MaxBackoff < opt.MinBackoff {
		opt.MaxBackoff = max(opt.MinBackoff, DefaultMaxBackoff)
	}
	if opt.Client == nil {
		opt.Client = &http.Client{}
	}
	w := &Webhook{url: url, opt: opt, stop: make(chan struct{}), done: make(chan struct{}), wake: make(chan struct{}, 1)}
	go w.loop()
	return w
}

// Post queues e for the receiver and returns at once. When the queue is
// full the oldest event waiting is dropped (Dropped counts them).
func (w *Webhook) Post(e Event) {
	w.mu.Lock()
	if len(w.queue) >= w.opt.Queue {
		w.queue = append(w.queue[:0], w.queue[1:]...)
		w.dropped.Add(1)
	}
	w.queue = append(w.queue, e)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Close stops posting, waiting for a POST under way (at most Timeout);
// the events still queued are not sent.
func (w *Webhook) Close() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
}

// Drain waits until no event waits to be posted, or ctx ends; it reports
// whether the queue emptied. A server calls it before Close, so that the
// last events of its games (a death at shutdown) go out.
func (w *Webhook) Drain(ctx context.Context) bool {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for w.Queued() > 0 {
		select {
		case <-ctx.Done():
			return false
		case <-w.done:
			return w.Queued() == 0
		case <-t.C:
		}
	}
	return true
}

// Queued returns how many events wait to be posted.
func (w *Webhook) Queued() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.queue)
}

// Sent returns how many events the receiver took.
func (w *Webhook) Sent() uint64 { return w.sent.Load() }

// Dropped returns how many events were dropped unsent for a full queue.
func (w *Webhook) Dropped() uint64 { return w.dropped.Load() }

// Rejected returns how many events the receiver refused for good (a 4xx
// other than 408 and 429).
func (w *Webhook) Rejected() uint64 { return w.rejected.Load() }

// Failures returns how many POSTs failed and were tried again.
func (w *Webhook) Failures() uint64 { return w.failures.Load() }

// head returns the oldest event waiting, or false.
func (w *Webhook) head() (Event, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) == 0 {
		return Event{}, false
	}
	return w.queue[0], true
}

// pop takes e off the queue if it is still its head (Post may have
// dropped it meanwhile).
func (w *Webhook) pop(e Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) > 0 && w.queue[0].ID == e.ID {
		w.queue = append(w.queue[:0], w.queue[1:]...)
	}
}

func (w *Webhook) loop() {
	defer close(w.done)
	backoff := w.opt.MinBackoff
	for {
		e, ok := w.head()
		if !ok {
			select {
			case <-w.stop:
				return
			case <-w.wake:
				continue
			}
		}
		switch w.post(e) {
		case accepted:
			w.sent.Add(1)
			w.pop(e)
			backoff = w.opt.MinBackoff
			continue
		case refused:
			w.rejected.Add(1)
			w.pop(e)
			continue
		}
		w.failures.Add(1)
		t := time.NewTimer(backoff)
		select {
		case <-w.stop:
			t.Stop()
			return
		case <-t.C:
		}
		backoff = min(2*backoff, w.opt.MaxBackoff)
	}
}

type outcome int

const (
	accepted outcome = iota
	refused          // for good
	failed           // try again
)

// post sends e once.
func (w *Webhook) post(e Event) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), w.opt.Timeout)
	defer cancel()
	go func() { // Close cuts a POST short
		select {
		case <-w.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(e.Line()))
	if err != nil {
		return refused // a URL that Validate let through but cannot be asked
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", e.ID)
	req.Header.Set("User-Agent", "grotto-events/1")
	resp, err := w.opt.Client.Do(req)
	if err != nil {
		return failed
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10)) // lets the connection be reused
	resp.Body.Close()
	switch c := resp.StatusCode; {
	case c >= 200 && c < 300:
		return accepted
	case c >= 400 && c < 500 && c != http.StatusRequestTimeout && c != http.StatusTooManyRequests:
		return refused
	}
	return failed
}
