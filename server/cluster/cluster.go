// Package cluster is the authenticated channel between the grotto nodes
// that share one store: a node asks another to give up a player's game
// (Evict, so that the player can take it over here), to stream its frames
// (Watch, so that a player here can watch a game there) and its chat
// (Chat, Say), and for an
// admin's host tools to show a banner to every session there (Broadcast)
// or to end a player's session there (Kick).
//
// The channel is HTTP/2 over mutual TLS 1.3 (net/http, crypto/tls), and it
// trusts nothing but the cluster's secret (store.Cluster.ClusterSecret):
// every node derives the same certificate authority from the secret
// ([NewCredentials]), and each node's own certificate, made at start and
// naming the node, is signed by it. A server accepts only a client whose
// certificate the authority signed; a client accepts only the server whose
// certificate the authority signed for the node it meant to reach. Whoever
// lacks the secret (which only the database holds) can neither call a node
// nor pose as one. Still, the channel's port belongs on a private address
// that only the other nodes reach, never on the public one.
//
// Why HTTP/2 rather than a framed protocol of our own: net/http and its
// HTTP/2 are well-kept and fuzzed, and give for free what a channel needs
// (many calls multiplexed over one connection per pair of nodes, flow
// control, streamed responses, pings that find a dead peer, timeouts, a
// recover per connection). Only a watch's frames are framed by this
// package: each a 4-byte big-endian length, then that many bytes.
package cluster

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"
)

// ErrNotHere is returned by [Local.Evict], [Client.Evict] and
// [Client.Watch] when the node has no live game of the key.
var ErrNotHere = errors.New("no game of this key on the node")

// ErrStillLeaving is returned by [Local.Kick] and [Client.Kick] when the
// player was told to leave but had not let go of the game within the
// node's wait: the session still saves and ends, later.
var ErrStillLeaving = errors.New("told to leave, not gone yet")

// ErrUnreachable is returned (wrapped, naming the node and the cause) by
// [Client.Evict] and [Client.Watch] when the node cannot be reached or does
// not answer: it announces no address (its announcement expired), nothing
// listens there, the connection times out or breaks. A node that is
// unreachable is likely dead: its leases lapse within their time to live.
var ErrUnreachable = errors.New("cannot reach the node")

// ErrUntrusted is returned (wrapped) by [Client.Evict] and [Client.Watch]
// when the node answered but the two did not trust each other: its
// certificate is not signed by this cluster's authority or names another
// node, or it refused this node's certificate (the two nodes do not share
// one store's secret, or the address is another node's).
var ErrUntrusted = errors.New("the node does not belong to this cluster")

// MaxFrame is the largest frame, in bytes, a watch carries (a game's save
// blob is a few tens of KB): a larger one is not sent, and a stream that
// announces one is broken off.
const MaxFrame = 4 << 20

// DialTimeout bounds connecting to a node over TCP; HandshakeTimeout bounds
// the TLS handshake that follows.
const (
	DialTimeout      = 2 * time.Second
	HandshakeTimeout = 5 * time.Second
)

// PingInterval is how long a connection may stay silent before its side
// sends an HTTP/2 ping; a ping unanswered within PingTimeout closes the
// connection, ending its calls and watches (RFC 9113, 6.7 "PING"), so a
// node that dies or is cut off is noticed even by an idle watch.
const (
	PingInterval = 10 * time.Second
	PingTimeout  = 5 * time.Second
)

// MaxBroadcast is the longest broadcast text, in bytes, a node accepts
// from another (grotto's own limit, 200 characters, is at most 800 bytes
// of UTF-8); a longer one is refused with 413.
const MaxBroadcast = 4 << 10

// FrameWriteTimeout bounds writing one frame to a watcher: a watcher that
// takes no bytes for this long is dropped.
const FrameWriteTimeout = 30 * time.Second

// Local is what this node offers the others over the channel; the server
// wires it to its lobby.
type Local interface {
	// Evict makes the live game of key fp on this node save and leave, and
	// returns nil once this node no longer holds the key's lease,
	// ErrNotHere when the key has no game here, or ctx's error (ctx is
	// cancelled when the asking node goes away or the server closes).
	Evict(ctx context.Context, fp string) error
	// Watch subscribes to the frames of key fp's game on this node: the
	// channel holds the latest frame first, then only the newest unread
	// one, and closes when the game ends; ok is false when the key has no
	// game here. stop ends the subscription (it may be called more than
	// once); the channel is then closed.
	Watch(fp string) (frames <-chan []byte, stop func(), ok bool)
	// Broadcast shows text (valid UTF-8, at most [MaxBroadcast] bytes, as
	// an admin on another node typed it; make it safe to show) as a
	// banner to every live session on this node, and returns how many it
	// reached. Errors: a text the node refuses, said for the admin.
	Broadcast(ctx context.Context, text string) (sessions int, err error)
	// Kick makes the live game of key fp on this node save and end, its
	// player told that an admin ended the session. It returns nil once
	// the session let go (its game saved, the key's lease released),
	// ErrStillLeaving when the player was told but had not let go within
	// the node's own wait, ErrNotHere when the key has no game here, or
	// ctx's error.
	Kick(ctx context.Context, fp string) error
	// Events takes events of the live feed made on another node
	// (server/events): lines, each one event's JSON line as that node
	// wrote it, at most [MaxEvents] bytes in all. It must not wait: the
	// node keeps them for its own followers.
	Events(lines [][]byte)
	// Chat subscribes to the chat of key fp's game on this node (chat.go):
	// the channel holds the whole chat first, then only the newest unread
	// state, and closes when the chat ends; ok is false when the key has
	// no game here whose chat a watcher may read. stop ends the
	// subscription (it may be called more than once).
	Chat(fp string) (states <-chan ChatState, stop func(), ok bool)
	// Say says line in the chat of key fp's game on this node, checking
	// the chat's bounds and the admins' mute again. It returns nil once the
	// line is in the chat, ErrNotHere when the key has no game here whose
	// chat a watcher may use, or why it was refused: a short code that
	// the calling node maps to its own words (never shown as it is).
	Say(ctx context.Context, fp string, line Said) error
}

// MaxEvents is the most bytes of event lines one call carries (an event's
// line is at most 4 KiB, server/events.MaxLine); a larger body is refused
// with 413.
const MaxEvents = 256 << 10

// writeFrame writes frame with its length before it.
func writeFrame(w io.Writer, frame []byte) error {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(frame)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	_, err := w.Write(frame)
	return err
}

// errFrameTooLarge is returned by readFrame for a length above MaxFrame.
var errFrameTooLarge = fmt.Errorf("a frame above %d bytes", MaxFrame)

// readFrame reads one frame that writeFrame wrote: io.EOF at a clean end
// of the stream, io.ErrUnexpectedEOF in the middle of a frame.
func readFrame(r io.Reader) ([]byte, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > MaxFrame {
		return nil, fmt.Errorf("%w: %d bytes", errFrameTooLarge, size)
	}
	frame := make([]byte, size)
	if _, err := io.ReadFull(r, frame); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return frame, nil
}

// offer puts frame in ch, a one-slot channel that only the caller sends
// on, dropping the frame it held unread: the reader gets the newest frame
// and never holds the writer up.
func offer(ch chan []byte, frame []byte) {
	select {
	case <-ch:
	default:
	}
	ch <- frame // the slot is free: only this goroutine sends
}
