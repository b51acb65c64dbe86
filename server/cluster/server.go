package cluster

// This file: a node's end that the others call: the listener, its calls
// (evict, watch, ping; broadcast and kick for the admins' host tools) and
// its shutdown.

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"charm.land/log/v2"
)

// Paths of the calls; fp is a query parameter.
const (
	evictPath = "/v1/evict"
	watchPath = "/v1/watch"
	pingPath  = "/v1/ping"
	// broadcastPath carries the text as the request's body.
	broadcastPath = "/v1/broadcast"
	// eventsPath carries event lines, one per line, as the body.
	eventsPath = "/v1/events"
	kickPath   = "/v1/kick"
)

// Server answers the other nodes' calls on this node's [Local]. It is safe
// for concurrent use.
type Server struct {
	local Local
	log   *log.Logger
	http  *http.Server

	mu     sync.Mutex
	closed bool
	calls  sync.WaitGroup // calls in flight on local
}

// NewServer returns a server of local's games for the nodes that hold
// credentials of the same cluster as c, logging to logger.
func NewServer(c *Credentials, local Local, logger *log.Logger) *Server {
	s := &Server{local: local, log: logger}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+evictPath, s.evict)
	mux.HandleFunc("GET "+watchPath, s.watch)
	mux.HandleFunc("GET "+pingPath, s.ping)
	mux.HandleFunc("POST "+broadcastPath, s.broadcast)
	mux.HandleFunc("POST "+kickPath, s.kick)
	mux.HandleFunc("POST "+eventsPath, s.events)
	mux.HandleFunc("GET "+chatPath, s.chat)
	mux.HandleFunc("POST "+sayPath, s.say)
	s.http = &http.Server{
		Handler:           mux,
		TLSConfig:         c.serverConfig(),
		ReadHeaderTimeout: HandshakeTimeout, // also bounds the TLS handshake
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		HTTP2:             &http.HTTP2Config{SendPingTimeout: PingInterval, PingTimeout: PingTimeout},
		// Failed handshakes (a scanner, a node of another cluster) are
		// net/http's to log: at debug, so that a port scan cannot fill
		// the log.
		ErrorLog: logger.StandardLog(log.StandardLogOptions{ForceLevel: log.DebugLevel}),
	}
	return s
}

// Serve answers calls on ln, a TCP listener on a private address (see the
// package doc), until [Server.Close]; it then returns http.ErrServerClosed,
// as net/http's Serve does. Any other error is the listener's.
func (s *Server) Serve(ln net.Listener) error {
	return s.http.ServeTLS(ln, "", "")
}

// Close closes the listener and every connection, ending the watches, and
// returns once no call on Local is in flight (an Evict in flight sees its
// context cancelled).
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	err := s.http.Close()
	s.calls.Wait()
	return err
}

// begin counts a call on local, or returns false once the server closes.
func (s *Server) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.calls.Add(1)
	return true
}

// peer names the node that called (its certificate, verified).
func peer(r *http.Request) string {
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
		return ""
	}
	return r.TLS.PeerCertificates[0].Subject.CommonName
}

// keyCall begins a call about one key (?fp=): it returns the key, or
// answers 400 without one and 503 once the server is closing (ok false).
// With ok true the caller must call s.calls.Done when it returns.
func (s *Server) keyCall(w http.ResponseWriter, r *http.Request) (fp string, ok bool) {
	fp = r.URL.Query().Get("fp")
	if fp == "" {
		http.Error(w, "no fp", http.StatusBadRequest)
		return "", false
	}
	if !s.begin() {
		http.Error(w, "closing", http.StatusServiceUnavailable)
		return "", false
	}
	return fp, true
}

// evict answers POST /v1/evict?fp=…: 204 once this node let the key go,
// 404 when it has no game of it, 503 when the call was cut short, 500 with
// the reason otherwise.
func (s *Server) evict(w http.ResponseWriter, r *http.Request) {
	fp, ok := s.keyCall(w, r)
	if !ok {
		return
	}
	defer s.calls.Done()
	err := s.local.Evict(r.Context(), fp)
	switch {
	case err == nil:
		s.log.Info("another node took a game over from this one: it left here", "fp", fp, "by", peer(r))
		w.WriteHeader(http.StatusNoContent)
	case errors.Is(err, ErrNotHere):
		http.Error(w, ErrNotHere.Error(), http.StatusNotFound)
	case r.Context().Err() != nil:
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	default:
		s.log.Warn("another node asked for a game here, which could not leave", "fp", fp, "by", peer(r), "err", err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// ping answers GET /v1/ping: 204 while the node serves, 503 once it is
// closing. It tells a node that answers from one that stopped.
func (s *Server) ping(w http.ResponseWriter, r *http.Request) {
	if !s.begin() {
		http.Error(w, "closing", http.StatusServiceUnavailable)
		return
	}
	s.calls.Done()
	w.WriteHeader(http.StatusNoContent)
}

// watch answers GET /v1/watch?fp=…: 404 when this node has no game of the
// key, else 200 and the game's frames, each a 4-byte big-endian length and
// the frame, until the game ends (the body ends), the watcher goes away or
// the server closes. The frames come from the game's one-slot channel, so
// a slow watcher misses frames and never holds the game up.
func (s *Server) watch(w http.ResponseWriter, r *http.Request) {
	fp, ok := s.keyCall(w, r)
	if !ok {
		return
	}
	defer s.calls.Done()
	frames, stop, ok := s.local.Watch(fp)
	if !ok {
		http.Error(w, ErrNotHere.Error(), http.StatusNotFound)
		return
	}
	defer stop()
	s.log.Debug("another node watches a game here", "fp", fp, "by", peer(r))
	stream(w, r, frames, func(frame []byte) []byte {
		if len(frame) > MaxFrame {
			s.log.Warn("a frame too large to send to a watching node was skipped", "fp", fp, "bytes", len(frame), "max", MaxFrame)
			return nil
		}
		return frame
	})
}

// stream answers a streaming call 200 with a body of frames: each item of
// items as frameOf makes it (nil skips the item), until items closes (the
// game or chat ended), the peer goes away or a write fails.
func stream[T any](w http.ResponseWriter, r *http.Request, items <-chan T, frameOf func(T) []byte) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "application/octet-stream")
	w.WriteHeader(http.StatusOK)
	if rc.Flush() != nil { // the header goes at once: the peer waits on it
		return
	}
	for {
		select {
		case item, open := <-items:
			if !open {
				return
			}
			frame := frameOf(item)
			if frame == nil {
				continue
			}
			if sendFrame(w, rc, frame) != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}

// sendFrame writes frame to a streaming call's w (writeFrame) within
// FrameWriteTimeout and flushes it to the peer.
func sendFrame(w io.Writer, rc *http.ResponseController, frame []byte) error {
	_ = rc.SetWriteDeadline(time.Now().Add(FrameWriteTimeout))
	if err := writeFrame(w, frame); err != nil {
		return err
	}
	return rc.Flush()
}

// broadcast answers POST /v1/broadcast, the text as the body: 200 and the
// number of sessions that show it (decimal), 400 for an empty text or one
// that is not UTF-8, 413 for one above MaxBroadcast bytes, 503 while
// closing, 500 with the node's reason when it refused the text.
func (s *Server) broadcast(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBroadcast))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, "a broadcast above "+strconv.Itoa(MaxBroadcast)+" bytes", http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "the text was cut off", http.StatusBadRequest)
		return
	case len(body) == 0 || !utf8.Valid(body):
		http.Error(w, "an empty text, or not UTF-8", http.StatusBadRequest)
		return
	}
	if !s.begin() {
		http.Error(w, "closing", http.StatusServiceUnavailable)
		return
	}
	defer s.calls.Done()
	n, err := s.local.Broadcast(r.Context(), string(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.log.Info("an admin on another node broadcast a message here", "sessions", n, "by", peer(r))
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, strconv.Itoa(n))
}

// kick answers POST /v1/kick?fp=…: 204 once the key's session here let
// go, 202 when it was told but has not let go yet (ErrStillLeaving), 404
// when this node has no game of the key, 503 when the call was cut short,
// 500 with the reason otherwise.
func (s *Server) kick(w http.ResponseWriter, r *http.Request) {
	fp, ok := s.keyCall(w, r)
	if !ok {
		return
	}
	defer s.calls.Done()
	err := s.local.Kick(r.Context(), fp)
	switch {
	case err == nil:
		s.log.Info("an admin on another node kicked a player here", "fp", fp, "by", peer(r))
		w.WriteHeader(http.StatusNoContent)
	case errors.Is(err, ErrStillLeaving):
		s.log.Info("an admin on another node kicked a player here, who has not let go yet", "fp", fp, "by", peer(r))
		http.Error(w, ErrStillLeaving.Error(), http.StatusAccepted)
	case errors.Is(err, ErrNotHere):
		http.Error(w, ErrNotHere.Error(), http.StatusNotFound)
	case r.Context().Err() != nil:
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	default:
		s.log.Warn("an admin on another node kicked a player here, who could not leave", "fp", fp, "by", peer(r), "err", err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// events answers POST /v1/events, event lines as the body (each ending in
// a newline): 204 once the node took them, 413 for a body above
// MaxEvents, 400 for one cut off, 503 while closing.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxEvents))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, "events above "+strconv.Itoa(MaxEvents)+" bytes", http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "the events were cut off", http.StatusBadRequest)
		return
	}
	if !s.begin() {
		http.Error(w, "closing", http.StatusServiceUnavailable)
		return
	}
	defer s.calls.Done()
	var lines [][]byte
	for line := range bytes.Lines(body) {
		lines = append(lines, line)
	}
	s.local.Events(lines)
	w.WriteHeader(http.StatusNoContent)
}
