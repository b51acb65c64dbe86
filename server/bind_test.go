package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
)

// TestBindOpensEveryAddressTheServerListensOn: with Config.Bind (systemd's
// sockets, a test's kept listeners) the server binds nothing itself: the
// SSH, web and metrics addresses are the listeners Bind returned, and the
// pages and /metrics answer on them.
func TestBindOpensEveryAddressTheServerListensOn(t *testing.T) {
	given := map[string]net.Listener{}
	var asked []string
	bind := func(name, addr string) (net.Listener, error) {
		asked = append(asked, name+" "+addr)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err == nil {
			given[name] = ln
		}
		return ln, err
	}
	srv, served := listenAndServe(t, Config{Listen: "127.0.0.1:1", HTTP: "127.0.0.1:2", Metrics: "127.0.0.1:3",
		DataDir: t.TempDir(), Logger: log.New(io.Discard), Bind: bind})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		recv(t, "Serve to return after Shutdown", served)
	})
	if got := strings.Join(asked, ", "); got != "ssh 127.0.0.1:1, metrics 127.0.0.1:3, http 127.0.0.1:2" {
		t.Errorf("Bind was asked for %s", got)
	}
	if srv.Addr() != given[BindSSH].Addr() || srv.HTTPAddr() != given[BindHTTP].Addr() || srv.MetricsAddr() != given[BindMetrics].Addr() {
		t.Errorf("the server listens on %v, %v, %v; Bind gave %v", srv.Addr(), srv.HTTPAddr(), srv.MetricsAddr(), given)
	}
	for _, u := range []string{"http://" + srv.HTTPAddr().String() + "/", "http://" + srv.MetricsAddr().String() + "/metrics"} {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %s", u, resp.Status)
		}
	}
}
