package server

// The browser's WebSockets under the per-address limits of SSH
// connections: --max-conns-per-addr counts them with the address's SSH
// connections, --conn-rate with its SSH sessions.

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/internal/await"
)

// openConns returns how many connections the server counts for key.
func openConns(srv *Server, key string) int {
	return srv.front.guard.Conns(key)
}

// waitConns waits until the server counts n connections of key.
func waitConns(t *testing.T, srv *Server, key string, n int) {
	t.Helper()
	if !await.Within(waitLong, func() bool { return openConns(srv, key) == n }) {
		t.Fatalf("the server counts %d connections of %s, want %d", openConns(srv, key), key, n)
	}
}

func TestBrowserSocketsCountAsConnectionsOfTheirAddressAndLeaveSSHRoom(t *testing.T) {
	lim := DefaultLimits()
	lim.ConnPer10s, lim.MaxConnsPerAddr, lim.MaxSessions = 10000, 3, 10
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0", Limits: lim})
	base := "http://" + srv.HTTPAddr().String()
	key := newKey(t)
	player := dial(t, addr, key, 100, 30)
	title(t, player)
	player.Send("q")
	ended(t, player)
	player.Close()
	b := noRedirects(t)
	if code, _ := get(t, b, webLinkOf(t, addr, key)); code != http.StatusSeeOther {
		t.Fatalf("the link: %d, want 303", code)
	}
	b.CloseIdleConnections()          // the link's HTTP connection counts too, while open
	waitConns(t, srv, "127.0.0.1", 0) // the SSH connections of the link are gone

	var pages []*page
	for range 3 {
		pages = append(pages, openPage(t, b, base, "/play/ws?cols=100&rows=30"))
	}
	waitConns(t, srv, "127.0.0.1", 3)
	// A fourth connection is refused as it is accepted, before any request.
	// A page's socket is told why in a close the page shows (status 1013),
	// not in an HTTP answer a browser keeps from the page.
	if code, why := refusedSocket(t, b, base, "/play/ws?cols=100&rows=30"); code != websocket.StatusTryAgainLater || !strings.Contains(why, "too many connections from your address (at most 3 at once)") {
		t.Errorf("a fourth play page from an address capped at 3: %v %q, want 1013 and too many connections", code, why)
	}
	if code, why := refusedHTTP(t, b, base, "/watch/1"); code != http.StatusTooManyRequests || !strings.Contains(why, "too many connections from your address (at most 3 at once)") {
		t.Errorf("a page beside 3 sockets from an address capped at 3: %d %q, want 429 and too many connections", code, why)
	}
	if code, why := refusedHTTP(t, b, base, "/"); code != http.StatusTooManyRequests || !strings.Contains(why, "too many connections from your address (at most 3 at once)") {
		t.Errorf("the front page beside 3 sockets from an address capped at 3: %d %q, want 429 and too many connections", code, why)
	}
	if c, err := dialNoSession(t, addr); err == nil {
		c.Close()
		t.Fatal("an SSH connection was let in beside 3 browser sockets with a cap of 3")
	}
	// A page that goes gives its place back: SSH gets in.
	pages[0].ws.Close(websocket.StatusNormalClosure, "")
	waitConns(t, srv, "127.0.0.1", 2)
	c, err := dialNoSession(t, addr)
	if err != nil {
		t.Fatalf("an SSH connection after a page closed: %v", err)
	}
	c.Close()
}

// refusedSocket opens the WebSocket at path and returns the status and
// reason it was closed with at once; it fails the test if it is refused
// with an HTTP answer instead, or let in.
func refusedSocket(t *testing.T, c *http.Client, base, path string) (websocket.StatusCode, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+path, &websocket.DialOptions{HTTPClient: c})
	if err != nil {
		code := 0
		if resp != nil {
			code = resp.StatusCode
		}
		t.Fatalf("%s: refused before it opened (HTTP %d): %v, want a socket closed with the reason", path, code, err)
	}
	defer ws.CloseNow()
	_, _, err = ws.Read(ctx)
	if websocket.CloseStatus(err) == -1 {
		t.Fatalf("%s: %v, want a close with a reason", path, err)
	}
	return websocket.CloseStatus(err), closeReason(err)
}

// refusedHTTP opens the WebSocket at path (any other path: fetches it)
// and returns the HTTP status and body it was refused with; it fails the
// test if it is let in.
func refusedHTTP(t *testing.T, c *http.Client, base, path string) (int, string) {
	t.Helper()
	if !strings.HasSuffix(path, "/ws") && !strings.Contains(path, "/ws?") {
		code, body := get(t, c, base+path)
		if code == http.StatusOK {
			t.Fatalf("%s was let in", path)
		}
		return code, body
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+path, &websocket.DialOptions{HTTPClient: c})
	if err == nil {
		ws.CloseNow()
		t.Fatalf("%s was let in", path)
	}
	if resp == nil {
		t.Fatalf("%s: %v, want an HTTP refusal", path, err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestBrowserSocketsShareTheAddressesConnRate(t *testing.T) {
	lim := DefaultLimits()
	lim.ConnPer10s = 3
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0", Limits: lim})
	// Serving: a connection gets in.
	if c, err := dialNoSession(t, addr); err != nil {
		t.Fatal(err)
	} else {
		c.Close()
	}
	gate := srv.front.guard
	one := &net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 1000}
	sameSlash64 := &net.TCPAddr{IP: net.ParseIP("2001:db8::ffff:2"), Port: 2000}
	for i, a := range []net.Addr{one, sameSlash64, one} {
		leave, err := gate.Enter(a)
		if err != nil {
			t.Fatalf("socket %d of 3 under --conn-rate 3: %v", i+1, err)
		}
		leave()
	}
	if _, err := gate.Enter(sameSlash64); err == nil || err.Error() != "rate limit exceeded, please try again later" {
		t.Errorf("a fourth socket in 10 s from one /64 under --conn-rate 3: %v, want SSH's rate limit line", err)
	}
	other := &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 1}
	leave, err := gate.Enter(other)
	if err != nil {
		t.Errorf("another address was refused: %v", err)
	} else {
		leave()
	}
}
