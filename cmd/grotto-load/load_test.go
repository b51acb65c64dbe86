package main

import (
	"net"
	"os"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
)

// serveOn starts serve on a free loopback port in this process.
func serveOn(t *testing.T, serve func(string) error) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	go serve(addr)
	if !await.Within(10*time.Second, func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Fatal("the floor did not start")
	}
	return addr
}

func TestTheLoadGeneratorMeasuresBothFloors(t *testing.T) {
	for _, f := range []struct {
		name  string
		k     kind
		serve func(string) error
	}{{"floor-echo", kindEcho, serveEcho}, {"floor-tea", kindTea, serveTea}} {
		addr := serveOn(t, f.serve)
		r := run(&target{name: f.name, kind: f.k, addr: addr, pid: os.Getpid()},
			options{sessions: 3, rate: 5, duration: time.Second, keys: "jk", dial: 3}, t.Logf)
		if r.Failed != 0 || r.Keys < 6 {
			t.Errorf("%s: %d failed, %d keys answered", f.name, r.Failed, r.Keys)
		}
		if r.LatencyP99 <= 0 || r.BytesPerKey <= 0 || r.RSSMiB <= 0 { // CPU is read in 10 ms ticks: too coarse for 15 keys
			t.Errorf("%s: figures missing: %+v", f.name, r)
		}
	}
}
