package server

// Browsers behind an HTTP reverse proxy (--http-trusted-proxy): the
// per-address limits count each browser by X-Forwarded-For, believed
// only from the proxy.

import (
	"context"
	"net/http"
	"testing"

	"github.com/coder/websocket"
)

// playSocketVia opens a play page's WebSocket (no cookie: it is told it
// can only watch) with X-Forwarded-For xff and returns how it closed.
func playSocketVia(t *testing.T, base, xff string) (websocket.StatusCode, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+base[len("http"):]+"/play/ws?cols=80&rows=24",
		&websocket.DialOptions{HTTPHeader: http.Header{"X-Forwarded-For": {xff}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	for {
		if _, _, err := ws.Read(ctx); err != nil {
			return websocket.CloseStatus(err), closeReason(err)
		}
	}
}

func closeReason(err error) string {
	var ce websocket.CloseError
	if errorsAs(err, &ce) {
		return ce.Reason
	}
	return err.Error()
}

func TestBrowsersBehindATrustedProxyCountByTheirForwardedAddress(t *testing.T) {
	lim := DefaultLimits()
	lim.ConnPer10s = 1 // one new socket per address per 10 s
	srv, _ := serve(t, Config{HTTP: "127.0.0.1:0", HTTPTrustedProxy: []string{"127.0.0.0/8"}, Limits: lim})
	base := "http://" + srv.HTTPAddr().String()
	// The proxy appends the peer it saw; what the browser sent is to the left.
	for _, xff := range []string{"203.0.113.1", "198.51.100.9, 203.0.113.2", "203.0.113.3, 127.0.0.5"} {
		if code, why := playSocketVia(t, base, xff); code != websocket.StatusPolicyViolation {
			t.Errorf("a browser forwarded as %q: %v %q, want admitted (1008, can only watch): each browser has its own limits", xff, code, why)
		}
	}
	if code, why := playSocketVia(t, base, "203.0.113.1"); code != websocket.StatusTryAgainLater {
		t.Errorf("203.0.113.1 again within 10 s: %v %q, want 1013: its own rate is spent", code, why)
	}
}

func TestAForwardedForFromAnUntrustedPeerIsIgnored(t *testing.T) {
	lim := DefaultLimits()
	lim.ConnPer10s = 1
	srv, _ := serve(t, Config{HTTP: "127.0.0.1:0", HTTPTrustedProxy: []string{"10.0.0.5"}, Limits: lim})
	base := "http://" + srv.HTTPAddr().String()
	if code, why := playSocketVia(t, base, "203.0.113.1"); code != websocket.StatusPolicyViolation {
		t.Fatalf("the first socket: %v %q, want admitted", code, why)
	}
	// Refused as its connection is accepted: 127.0.0.1's rate is spent.
	if code, why := playSocketVia(t, base, "203.0.113.2"); code != websocket.StatusTryAgainLater || why != "rate limit exceeded, please try again later" {
		t.Errorf("a second socket from 127.0.0.1 claiming another address: %v %q, want 1013 and SSH's rate limit line: the header of an untrusted peer is not believed", code, why)
	}
}
