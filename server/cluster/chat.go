package cluster

// This file: a live game's chat across nodes (issue 25). A node that
// shows a game of another node to a watcher streams that game's chat from
// the game's node (GET /v1/chat?fp=…: each update the whole chat as JSON,
// framed as a watch's frames are), and says the watcher's lines there
// (POST /v1/say?fp=…). The speaker's key and name travel with the line:
// the channel is mutual TLS between the nodes of one cluster, so the node
// that checked them is trusted; the game's node checks the chat's bounds
// and the admins' mute again, since its chat is the one that holds them.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// Paths of the chat calls; fp (the player's key) is a query parameter.
const (
	chatPath = "/v1/chat"
	sayPath  = "/v1/say"
)

// MaxSay is the largest body, in bytes, of a line said over the channel
// (grotto's longest line is 200 characters, at most 800 bytes of UTF-8,
// plus a key and a name); a larger one is refused with 413.
const MaxSay = 4 << 10

// ChatLine is one line of a game's chat as it goes node to node.
type ChatLine struct {
	// Name is the speaker's name.
	Name string `json:"name"`
	// Text is what was said, made inert by the game's node.
	Text string `json:"text"`
	// Player reports whether the game's own player said it.
	Player bool `json:"player,omitempty"`
}

// ChatState is a game's chat as its node streams it: every line kept,
// oldest first, and whether the player muted the watchers.
type ChatState struct {
	Lines []ChatLine `json:"lines"`
	Muted bool       `json:"muted,omitempty"`
}

// Said is a line a watcher on another node says in a game's chat.
type Said struct {
	// Key is the speaker's fingerprint, as the calling node identified it.
	Key string `json:"key"`
	// Name is the speaker's stored name, as the calling node read it.
	Name string `json:"name"`
	// Text is the line as typed (the game's node makes it inert).
	Text string `json:"text"`
}

// RefusedError is returned by [Client.Say] when the game's node refused
// the line (its chat's bounds, a mute): Reason is that node's short code
// for why ([Local.Say]'s error text), never to be shown as it is.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return "the line was refused: " + e.Reason }

// Chat streams the chat of key fp's game on node: the channel holds the
// whole chat first, then only the newest unread state, and closes when
// the game's chat ends (the game ended or left the node), the stream
// breaks or stop is called (ctx bounds only the call's start, as for
// [Client.Watch]). Errors: as [Client.Evict]'s.
func (c *Client) Chat(ctx context.Context, node, fp string) (states <-chan ChatState, stop func(), err error) {
	resp, cancel, err := c.stream(ctx, node, chatPath, fp, "chat on")
	if err != nil {
		return nil, nil, err
	}
	ch := make(chan ChatState, 1)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		for {
			frame, err := readFrame(resp.Body)
			if err != nil {
				return
			}
			var st ChatState
			if json.Unmarshal(frame, &st) != nil {
				return // not this cluster's format: end the stream
			}
			select {
			case <-ch:
			default:
			}
			ch <- st
		}
	}()
	return ch, cancel, nil
}

// Say says line in the chat of key fp's game on node. Errors: a
// *[RefusedError] when the node's chat refused it; otherwise as
// [Client.Evict]'s ([ErrNotHere] when node has no game of fp).
func (c *Client) Say(ctx context.Context, node, fp string, line Said) error {
	body, err := json.Marshal(line)
	if err != nil {
		return err
	}
	resp, msg, err := c.call(ctx, node, "say on", http.MethodPost, callURL(sayPath, fp), "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	switch resp.StatusCode {
	case http.StatusNoContent, http.StatusOK:
		return nil
	case http.StatusUnprocessableEntity:
		return &RefusedError{Reason: strings.TrimSpace(string(msg))}
	}
	return c.refused(ctx, "say on", node, resp, msg)
}

// chat answers GET /v1/chat?fp=…: 404 when this node has no chat of the
// key's game (none, or today's daily), else 200 and the chat's states,
// each framed as a watch's frames, until the chat ends (the body ends),
// the caller goes away or the server closes.
func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	fp, ok := s.keyCall(w, r)
	if !ok {
		return
	}
	defer s.calls.Done()
	states, stop, ok := s.local.Chat(fp)
	if !ok {
		http.Error(w, ErrNotHere.Error(), http.StatusNotFound)
		return
	}
	defer stop()
	stream(w, r, states, func(st ChatState) []byte {
		frame, err := json.Marshal(st)
		if err != nil || len(frame) > MaxFrame {
			return nil
		}
		return frame
	})
}

// say answers POST /v1/say?fp=…, a Said as JSON: 204 once the line is in
// the chat, 422 with the reason (Local.Say's error text) when the chat
// refused it, 404 when this node has no chat of the key's game, 400 for a
// body that is not a Said, 413 for one above MaxSay bytes, 503 while
// closing.
func (s *Server) say(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxSay))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, "a line above 4 KiB", http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "the line was cut off", http.StatusBadRequest)
		return
	}
	var line Said
	if err := json.Unmarshal(body, &line); err != nil || line.Key == "" {
		http.Error(w, "not a line", http.StatusBadRequest)
		return
	}
	fp, ok := s.keyCall(w, r)
	if !ok {
		return
	}
	defer s.calls.Done()
	err = s.local.Say(r.Context(), fp, line)
	switch {
	case err == nil:
		w.WriteHeader(http.StatusNoContent)
	case errors.Is(err, ErrNotHere):
		http.Error(w, ErrNotHere.Error(), http.StatusNotFound)
	default:
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
	}
}
