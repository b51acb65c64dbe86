package cluster

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/log/v2"
)

func secret(t *testing.T) []byte {
	s := make([]byte, 32)
	rand.Read(s)
	return s
}

// Every node derives the same authority from one secret, and another from
// another; each node's own certificate is its own.
func TestEveryNodeDerivesTheSameAuthority(t *testing.T) {
	s := secret(t)
	a, err := NewCredentials(s, "a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewCredentials(bytes.Clone(s), "b")
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewCredentials(secret(t), "a")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.ca.Raw, b.ca.Raw) {
		t.Error("two nodes with one secret built different authorities")
	}
	if bytes.Equal(a.ca.Raw, x.ca.Raw) {
		t.Error("two secrets built the same authority")
	}
	if bytes.Equal(a.cert.Certificate[0], b.cert.Certificate[0]) || a.cert.Leaf.Subject.CommonName != "a" {
		t.Error("the nodes' own certificates are not their own")
	}
	if _, err := NewCredentials(s[:31], "a"); err == nil {
		t.Error("a 31-byte secret was accepted")
	}
	if _, err := NewCredentials(s, ""); err == nil {
		t.Error("an empty node name was accepted")
	}
}

// A node whose certificate another authority signed, but which trusts
// this cluster's, is refused by the server: the games are never asked.
// TLS 1.3 tells the client of the refusal only after the handshake (RFC
// 8446, 4.4.2.4), as an alert that races with the client's first write,
// so the client sees ErrUntrusted or, when its write lost the race to the
// closed connection, ErrUnreachable. (Between grotto nodes this cannot
// happen: both ends trust the one authority of the secret.)
func TestAClientWithAForeignCertificateIsUntrusted(t *testing.T) {
	s := secret(t)
	srvCreds, err := NewCredentials(s, "a")
	if err != nil {
		t.Fatal(err)
	}
	cliCreds, err := NewCredentials(s, "b")
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := NewCredentials(secret(t), "b")
	if err != nil {
		t.Fatal(err)
	}
	cliCreds.cert = foreign.cert
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var calls countingLocal
	srv := NewServer(srvCreds, &calls, log.New(io.Discard))
	go srv.Serve(ln)
	defer srv.Close()
	c := NewClient(cliCreds, func(context.Context, string) (string, error) { return ln.Addr().String(), nil })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	refused := func(err error) bool { return errors.Is(err, ErrUntrusted) || errors.Is(err, ErrUnreachable) }
	for range 5 {
		if err := c.Evict(ctx, "a", "SHA256:p"); !refused(err) {
			t.Errorf("evict: %v, want ErrUntrusted or ErrUnreachable", err)
		}
		if _, _, err := c.Watch(ctx, "a", "SHA256:p"); !refused(err) {
			t.Errorf("watch: %v, want ErrUntrusted or ErrUnreachable", err)
		}
	}
	if n := calls.n.Load(); n != 0 {
		t.Errorf("the games were asked %d times", n)
	}
}

// countingLocal has no games, and counts the calls.
type countingLocal struct{ n atomic.Int64 }

func (l *countingLocal) Evict(context.Context, string) error            { l.n.Add(1); return ErrNotHere }
func (l *countingLocal) Broadcast(context.Context, string) (int, error) { l.n.Add(1); return 0, nil }
func (l *countingLocal) Kick(context.Context, string) error             { l.n.Add(1); return ErrNotHere }
func (l *countingLocal) Events([][]byte)                                { l.n.Add(1) }
func (l *countingLocal) Say(context.Context, string, Said) error        { l.n.Add(1); return ErrNotHere }
func (l *countingLocal) Chat(string) (<-chan ChatState, func(), bool) {
	l.n.Add(1)
	return nil, nil, false
}
func (l *countingLocal) Watch(string) (<-chan []byte, func(), bool) {
	l.n.Add(1)
	return nil, nil, false
}

// Frames read back as written; a length above MaxFrame breaks the stream
// off before anything that large is allocated; a cut frame is
// ErrUnexpectedEOF.
func TestFramesAreReadAsWrittenAndCapped(t *testing.T) {
	var buf bytes.Buffer
	for _, f := range [][]byte{{}, []byte("one"), bytes.Repeat([]byte{7}, 70000)} {
		if err := writeFrame(&buf, f); err != nil {
			t.Fatal(err)
		}
		got, err := readFrame(&buf)
		if err != nil || !bytes.Equal(got, f) {
			t.Fatalf("read %d bytes, %v; want the %d written", len(got), err, len(f))
		}
	}
	if _, err := readFrame(&buf); err != io.EOF {
		t.Errorf("at the end: %v, want io.EOF", err)
	}
	if _, err := readFrame(bytes.NewReader([]byte{0x00, 0x40, 0x00, 0x01})); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("a length of 4 MiB + 1: %v, want errFrameTooLarge", err)
	}
	if _, err := readFrame(bytes.NewReader([]byte{0xff, 0xff, 0xff, 0xff, 1})); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("a length of 4 GiB: %v, want errFrameTooLarge", err)
	}
	if _, err := readFrame(bytes.NewReader([]byte{0, 0, 0, 5, 'a', 'b'})); err != io.ErrUnexpectedEOF {
		t.Errorf("a cut frame: %v, want io.ErrUnexpectedEOF", err)
	}
}
