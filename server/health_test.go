package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/internal/sshtest"
)

// probe fetches url and returns its status and body ("" and 0 when no
// answer came).
func probe(url string) (int, string) {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 512)
	n, _ := resp.Body.Read(buf)
	b.Write(buf[:n])
	return resp.StatusCode, b.String()
}

// A node that begins to shut down says "not ready" before it refuses
// anyone: a balancer probing /readyz sends new players elsewhere while the
// node still serves the ones on their way (found behind HAProxy: the node
// refused connections the instant SIGTERM came, while HAProxy still
// counted it up for 2–4 s). The drain here (MaxDrain) lasts until CutDrain.
func TestADrainingNodeSaysNotReadyWhileItStillServesThenRefuses(t *testing.T) {
	srv, addr := serve(t, Config{Metrics: "127.0.0.1:0", HTTP: "127.0.0.1:0", Drain: MaxDrain})
	urls := []string{"http://" + srv.MetricsAddr().String(), "http://" + srv.HTTPAddr().String()}
	for _, u := range urls {
		if code, body := probe(u + "/readyz"); code != http.StatusOK || body != "ready\n" {
			t.Fatalf("%s/readyz before the shutdown: %d %q, want 200 ready", u, code, body)
		}
		if code, body := probe(u + "/healthz"); code != http.StatusOK || body != "ok\n" {
			t.Fatalf("%s/healthz: %d %q, want 200 ok", u, code, body)
		}
	}
	player := dial(t, addr, newKey(t), 100, 30)
	newGame(t, player)

	ctx, cancel := context.WithTimeout(context.Background(), 3*waitLong)
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- srv.Shutdown(ctx) }()
	for _, u := range urls {
		var code int
		var body string
		if !await.Within(waitLong, func() bool {
			code, body = probe(u + "/readyz")
			return code == http.StatusServiceUnavailable
		}) || !strings.Contains(body, "draining") {
			t.Fatalf("%s/readyz once the shutdown began: %d %q, want 503 draining", u, code, body)
		}
		if code, _ := probe(u + "/healthz"); code != http.StatusOK {
			t.Errorf("%s/healthz while draining: %d, want 200: the process still serves", u, code)
		}
	}
	late := dial(t, addr, newKey(t), 100, 30) // on its way when the balancer saw 503
	title(t, late)
	player.Send(".")
	waitText(t, player, "Turn: 1")

	srv.CutDrain()
	if err := await.Recv(t, 3*waitLong, "the shutdown after the drain", stopped); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*sshtest.Client{player, late} {
		if out := ended(t, c); !strings.Contains(out, "The server is shutting down") {
			t.Errorf("a session open during the drain read %q at the end, want the server shutting down", out)
		}
	}
	if c, err := sshtest.Dial(addr, newKey(t), sshtest.Options{Width: 80, Height: 24}); err == nil {
		c.Close()
		t.Error("a connection after the drain was served")
	}
}

// A probe is GET or HEAD, on either address alike; anything else is told
// so (found: the web address answered 404, the metrics address 405).
func TestTheHealthEndpointsAnswerOtherMethods405OnBothAddresses(t *testing.T) {
	srv, _ := serve(t, Config{Metrics: "127.0.0.1:0", HTTP: "127.0.0.1:0"})
	for _, base := range []string{"http://" + srv.MetricsAddr().String(), "http://" + srv.HTTPAddr().String()} {
		for _, path := range []string{"/healthz", "/readyz"} {
			req, _ := http.NewRequest(http.MethodDelete, base+path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("DELETE %s%s: %s, Allow %q; want 405 and GET, HEAD", base, path, resp.Status, resp.Header.Get("Allow"))
			}
			head, err := http.Head(base + path)
			if err != nil {
				t.Fatal(err)
			}
			head.Body.Close()
			if head.StatusCode != http.StatusOK {
				t.Errorf("HEAD %s%s: %s, want 200", base, path, head.Status)
			}
		}
	}
}

// A node with no game to renew still says not ready while its database is
// away, and ready once it is back: a host's tester saw the empty node stay
// ready through a PostgreSQL outage, so HAProxy's leastconn sent it every
// new login while it could reach no database either.
func TestANodeWithNoGamesIsNotReadyWhileItsDatabaseIsAway(t *testing.T) {
	pg, err := pgtest.Start() // this test's own: it stops it
	if err != nil {
		if testing.Short() {
			t.Skipf("skipped under -short: %v", err)
		}
		t.Fatalf("pgtest: cannot start PostgreSQL: %v", err)
	}
	defer pg.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := pg.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := serveNode(t, url, "empty", 3*time.Second, &lockedBuffer{}, func(c *Config) { c.Metrics = "127.0.0.1:0" })
	ready := "http://" + srv.MetricsAddr().String() + "/readyz"
	if code, body := probe(ready); code != http.StatusOK {
		t.Fatalf("a node on a database that answers: /readyz %d %q", code, body)
	}
	if err := pg.Kill(); err != nil {
		t.Fatal(err)
	}
	var code int
	var body string
	if !await.Within(waitLong, func() bool { code, body = probe(ready); return code == http.StatusServiceUnavailable }) {
		t.Fatalf("with its database stopped, the node with no games says /readyz %d %q", code, body)
	}
	if !strings.Contains(body, "database") {
		t.Errorf("/readyz says %q, not why", body)
	}
	if err := pg.Restart(); err != nil {
		t.Fatal(err)
	}
	if !await.Within(waitLong, func() bool { code, body = probe(ready); return code == http.StatusOK }) {
		t.Errorf("with its database back, /readyz %d %q", code, body)
	}
}
