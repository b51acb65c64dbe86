package cluster

// This file: a node's end that calls the others: one HTTP/2 connection
// pool per node, dialled at the address the node announced.

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// Client calls the other nodes of the cluster. It is safe for concurrent
// use; keep one per process.
type Client struct {
	creds  *Credentials
	addrOf func(ctx context.Context, node string) (string, error)

	mu    sync.Mutex
	nodes map[string]*http.Client // one connection pool per node
}

// NewClient returns a client that authenticates with c and finds a node's
// address with addrOf (store.Cluster.NodeAddr), asked at each new
// connection, so a node that comes back at another address is found there.
func NewClient(c *Credentials, addrOf func(ctx context.Context, node string) (string, error)) *Client {
	return &Client{creds: c, addrOf: addrOf, nodes: map[string]*http.Client{}}
}

// CloseIdleConnections closes the connections that carry no call or watch.
func (c *Client) CloseIdleConnections() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, hc := range c.nodes {
		hc.CloseIdleConnections()
	}
}

// Evict asks node to make the game of key fp save and leave, and returns
// nil once node no longer holds the key's lease. Errors: [ErrNotHere]
// when node has no game of fp; [ErrUnreachable] (wrapped) when node cannot
// be reached, does not answer or is shutting down; [ErrUntrusted]
// (wrapped); ctx's error (wrapped); else the node's reason why the game
// could not leave.
func (c *Client) Evict(ctx context.Context, node, fp string) error {
	resp, msg, err := c.call(ctx, node, "evict from", http.MethodPost, callURL(evictPath, fp), "", nil)
	if err != nil {
		return err
	}
	if resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusOK {
		return nil
	}
	return c.refused(ctx, "evict from", node, resp, msg)
}

// Ping returns nil when node answers on the channel. Errors: as
// [Client.Evict]'s ([ErrUnreachable] (wrapped) for a node that stopped,
// is paused, cut off or shutting down, or never announced an address).
func (c *Client) Ping(ctx context.Context, node string) error {
	resp, msg, err := c.call(ctx, node, "ping", http.MethodGet, "https://node"+pingPath, "", nil)
	if err != nil {
		return err
	}
	if resp.StatusCode == http.StatusNoContent {
		return nil
	}
	return c.refused(ctx, "ping", node, resp, msg)
}

// Broadcast asks node to show text (valid UTF-8, at most [MaxBroadcast]
// bytes) as a banner to every live session there, and returns how many
// sessions it reached. Errors: as [Client.Evict]'s (never ErrNotHere).
func (c *Client) Broadcast(ctx context.Context, node, text string) (sessions int, err error) {
	resp, msg, err := c.call(ctx, node, "broadcast on", http.MethodPost, "https://node"+broadcastPath,
		"text/plain; charset=utf-8", strings.NewReader(text))
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, c.refused(ctx, "broadcast on", node, resp, msg)
	}
	n, err := strconv.Atoi(string(msg))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("broadcast on node %s: it answered %.40q, not a number of sessions", node, msg)
	}
	return n, nil
}

// Kick asks node to make the game of key fp save and end, its player told
// that an admin ended the session, and returns nil once the session there
// let go. Errors: [ErrStillLeaving] when the player was told but had not
// let go within that node's wait (give ctx that wait and a few seconds
// more); otherwise as [Client.Evict]'s ([ErrNotHere] when node has no game
// of fp).
func (c *Client) Kick(ctx context.Context, node, fp string) error {
	resp, msg, err := c.call(ctx, node, "kick on", http.MethodPost, callURL(kickPath, fp), "", nil)
	if err != nil {
		return err
	}
	switch resp.StatusCode {
	case http.StatusNoContent, http.StatusOK:
		return nil
	case http.StatusAccepted:
		return ErrStillLeaving
	}
	return c.refused(ctx, "kick on", node, resp, msg)
}

// call makes one request of node on the channel (contentType "" for
// none) and returns the answer, its body read (at most 4 KiB) and closed,
// for the caller to judge by status (refused). err is only a request that
// could not be made or sent: the connection's failure is Client.failed's,
// named by what ("evict from", "kick on").
func (c *Client) call(ctx context.Context, node, what, method, url, contentType string, body io.Reader) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return nil, nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.client(node).Do(req)
	if err != nil {
		return nil, nil, c.failed(ctx, what, node, err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	return resp, msg, nil
}

// refused returns the error of a call that node answered with resp, not a
// success, and the body msg: ErrNotHere for 404; for 503, ctx's error if
// ctx ended, else ErrUnreachable (the node is shutting down); else the
// status and the node's message.
func (c *Client) refused(ctx context.Context, call, node string, resp *http.Response, msg []byte) error {
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return ErrNotHere
	case ctx.Err() != nil:
		return fmt.Errorf("%s node %s: %w", call, node, ctx.Err())
	case resp.StatusCode == http.StatusServiceUnavailable:
		return fmt.Errorf("%s node %s: %w: it is shutting down", call, node, ErrUnreachable)
	}
	return fmt.Errorf("%s node %s: %s: %s", call, node, resp.Status, strings.TrimSpace(string(msg)))
}

// Watch streams the frames of key fp's game on node: the channel holds
// the latest frame first, then only the newest unread one (a slow reader
// misses frames and never holds the remote game up), and closes when the
// remote game ends, the stream breaks (a frame above [MaxFrame], a lost
// connection) or stop is called (stop may be called more than once; ctx
// only bounds the call's start: once Watch returned, only stop ends the
// stream). Errors: as [Client.Evict]'s.
func (c *Client) Watch(ctx context.Context, node, fp string) (frames <-chan []byte, stop func(), err error) {
	resp, cancel, err := c.stream(ctx, node, watchPath, fp, "watch on")
	if err != nil {
		return nil, nil, err
	}
	ch := make(chan []byte, 1)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		for {
			frame, err := readFrame(resp.Body)
			if err != nil {
				return // the game ended, the stream broke, or stop
			}
			offer(ch, frame)
		}
	}()
	return ch, cancel, nil
}

// stream opens the streaming call path about key fp on node (call names it
// in errors, "watch on"): the response once node answered 200, and the
// cancel that ends the stream. ctx bounds only the start; once stream has
// returned, only cancel ends it. Errors: as [Client.Evict]'s.
func (c *Client) stream(ctx context.Context, node, path, fp, call string) (*http.Response, context.CancelFunc, error) {
	// ctx bounds the start, sctx the stream (cancel ends it).
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	unbind := context.AfterFunc(ctx, cancel)
	req, err := http.NewRequestWithContext(sctx, http.MethodGet, callURL(path, fp), nil)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	resp, err := c.client(node).Do(req)
	if !unbind() && err == nil { // ctx ended as the stream began
		resp.Body.Close()
		return nil, nil, fmt.Errorf("%s node %s: %w", call, node, ctx.Err())
	}
	if err != nil {
		cancel()
		return nil, nil, c.failed(ctx, call, node, err)
	}
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		cancel()
		return nil, nil, c.refused(ctx, call, node, resp, msg)
	}
	return resp, cancel, nil
}

// callURL is the URL of a call on the node a client's pool dials; its
// host is never resolved (see client).
func callURL(path, fp string) string {
	return "https://node" + path + "?" + url.Values{"fp": {fp}}.Encode()
}

// client returns node's connection pool, made on first use.
func (c *Client) client(node string) *http.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if hc, ok := c.nodes[node]; ok {
		return hc
	}
	t := &http.Transport{
		DialTLSContext:    func(ctx context.Context, _, _ string) (net.Conn, error) { return c.dial(ctx, node) },
		ForceAttemptHTTP2: true,
		HTTP2:             &http.HTTP2Config{SendPingTimeout: PingInterval, PingTimeout: PingTimeout},
		MaxIdleConns:      1,
		Proxy:             nil, // never through an HTTP proxy of the environment
	}
	hc := &http.Client{
		Transport: t,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	c.nodes[node] = hc
	return hc
}

// dialError is an error of dial: reaching the node, or trusting it.
type dialError struct{ err error }

func (e *dialError) Error() string { return e.err.Error() }
func (e *dialError) Unwrap() error { return e.err }

// dial connects to node at its announced address and makes the TLS
// handshake that verifies it is node (see Credentials.clientConfig).
func (c *Client) dial(ctx context.Context, node string) (net.Conn, error) {
	addr, err := c.addrOf(ctx, node)
	if err != nil {
		return nil, &dialError{fmt.Errorf("%w: %w", ErrUnreachable, err)}
	}
	d := net.Dialer{Timeout: DialTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, &dialError{fmt.Errorf("%w: at %s: %w", ErrUnreachable, addr, err)}
	}
	hctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
	defer cancel()
	tc := tls.Client(conn, c.creds.clientConfig(node))
	if err := tc.HandshakeContext(hctx); err != nil {
		conn.Close()
		if trustFailure(err) {
			return nil, &dialError{fmt.Errorf("%w: at %s: %w", ErrUntrusted, addr, err)}
		}
		return nil, &dialError{fmt.Errorf("%w: at %s: TLS handshake: %w", ErrUnreachable, addr, err)}
	}
	return tc, nil
}

// failed returns the error of a call to node that got no answer: ctx's
// error when ctx ended; a dial's error (ErrUnreachable or ErrUntrusted) as
// it is; ErrUntrusted when the node refused this node's certificate (which
// TLS 1.3 tells only after the handshake, RFC 8446, 4.4.2.4); else
// ErrUnreachable: the connection broke or timed out.
func (c *Client) failed(ctx context.Context, call, node string, err error) error {
	var de *dialError
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("%s node %s: %w", call, node, ctx.Err())
	case errors.As(err, &de):
		return fmt.Errorf("%s node %s: %w", call, node, de.err)
	case trustFailure(err):
		return fmt.Errorf("%s node %s: %w: %w", call, node, ErrUntrusted, err)
	}
	return fmt.Errorf("%s node %s: %w: %w", call, node, ErrUnreachable, err)
}

// trustFailure reports whether err says that the two ends did not trust
// each other: a certificate that did not verify here (x509's errors, or
// one naming another node), or a TLS alert from the peer (crypto/tls
// reports a received alert as a *net.OpError with Op "remote error").
func trustFailure(err error) bool {
	var (
		unknown   x509.UnknownAuthorityError
		invalid   x509.CertificateInvalidError
		hostname  x509.HostnameError
		verifyErr *tls.CertificateVerificationError
		opErr     *net.OpError
	)
	switch {
	case errors.Is(err, errWrongNode),
		errors.As(err, &unknown), errors.As(err, &invalid), errors.As(err, &hostname), errors.As(err, &verifyErr):
		return true
	case errors.As(err, &opErr) && opErr.Op == "remote error":
		return true
	}
	return false
}

// Events hands node event lines of the live feed (each one event's JSON
// line with its newline, at most [MaxEvents] bytes in all). Errors: as
// [Client.Evict]'s.
func (c *Client) Events(ctx context.Context, node string, lines []byte) error {
	resp, msg, err := c.call(ctx, node, "send events to", http.MethodPost, "https://node"+eventsPath, "", bytes.NewReader(lines))
	if err != nil {
		return err
	}
	if resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusOK {
		return nil
	}
	return c.refused(ctx, "send events to", node, resp, msg)
}
