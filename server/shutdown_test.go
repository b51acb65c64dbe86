package server

import (
	"context"
	"io"
	"testing"
	"time"

	"charm.land/log/v2"
)

// TestShutdownBeforeServeAndServeAfterShutdownReturnPromptly: a host (or a
// signal) that stops the server before it serves does not leave Serve
// accepting players on a closed store, nor Shutdown waiting for it.
func TestShutdownBeforeServeAndServeAfterShutdownReturnPromptly(t *testing.T) {
	for _, listen := range []bool{false, true} {
		srv, err := newServer(t, Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), HTTP: "127.0.0.1:0", Logger: log.New(io.Discard)})
		if err != nil {
			t.Fatal(err)
		}
		if listen {
			if err := srv.Listen(); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitLong)
		shut := make(chan error, 1)
		go func() { shut <- srv.Shutdown(ctx) }()
		select {
		case err := <-shut:
			if err != nil {
				t.Errorf("listening %v: Shutdown before Serve: %v", listen, err)
			}
		case <-time.After(waitLong):
			t.Fatalf("listening %v: Shutdown before Serve has not returned after %v", listen, waitLong)
		}
		cancel()
		served := make(chan error, 1)
		go func() { served <- srv.Serve() }()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("listening %v: Serve after Shutdown: %v, want nil", listen, err)
			}
		case <-time.After(waitLong):
			srv.front.srv.Close()
			t.Fatalf("listening %v: Serve after Shutdown still serves after %v", listen, waitLong)
		}
	}
}

// TestShutdownRightAfterServeStartsReturnsPromptly: Shutdown racing the
// start of Serve ends both.
func TestShutdownRightAfterServeStartsReturnsPromptly(t *testing.T) {
	for range 5 {
		srv, err := newServer(t, Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), HTTP: "127.0.0.1:0", Logger: log.New(io.Discard)})
		if err != nil {
			t.Fatal(err)
		}
		served := make(chan error, 1)
		go func() { served <- srv.Serve() }()
		ctx, cancel := context.WithTimeout(context.Background(), waitLong)
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("Serve: %v, want nil", err)
			}
		case <-time.After(waitLong):
			srv.front.srv.Close()
			t.Fatalf("Serve has not returned %v after Shutdown", waitLong)
		}
	}
}
