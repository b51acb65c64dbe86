package server

// This file: the live events feed (server/events) as this node keeps it.
// A session's milestones (session.Config.Milestone) become events named
// by this node and the player's shown name; each goes to the node's hub
// (`ssh host events`, the web front page), to the webhook
// (--events-webhook) and, on a cluster, to every other node's hub over the
// node channel (nodes.go: sendEvent). An event heard from another node
// goes to the hub only: the node where it happened posts it.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/server/events"
	"github.com/grotto-game/grotto/server/session"
)

// feed is the node's live events feed.
type feed struct {
	hub  *events.Hub
	ids  *events.IDs
	hook *events.Webhook // nil without --events-webhook
}

// newFeed makes the feed: a hub, IDs with a random prefix of this run
// (so that no node or restart repeats one), and the webhook if set.
func newFeed(cfg Config) feed {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	f := feed{hub: events.NewHub(events.DefaultKeep), ids: events.NewIDs(hex.EncodeToString(b[:]))}
	if cfg.EventsWebhook != "" {
		f.hook = events.NewWebhook(cfg.EventsWebhook, events.WebhookOptions{})
	}
	return f
}

// milestones returns the session.Config.Milestone of the session whose
// lobby is lob: each milestone becomes an event of this node, published.
func (s *Server) milestones(lob *sessionLobby) func(session.Milestone) {
	return func(m session.Milestone) {
		// The name the live game is listed under now: an admin's rename
		// changes it at once (lobby.RenameKey), the session's own later.
		name := lob.shownName()
		if g, ok := s.place.live.OfKey(lob.fp); ok && g.Name != "" {
			name = g.Name
		}
		// The cause as the score table says it, in the third person: "(it
		// hit them for 6)", never the player's "you" on a public feed.
		s.publish(events.Event{V: events.Version, ID: s.feed.ids.Next(), Time: s.clock().UTC(), Node: s.cfg.Node,
			Kind: events.Kind(m.Kind), Player: name, Daily: m.Daily, Depth: m.Depth, Turn: m.Turn,
			Level: m.Level, Monster: m.Monster, Cause: game.ThirdPerson(m.Cause), Won: m.Won, Score: m.Score, Rank: m.Rank,
			Cheated: m.Cheated})
	}
}

// publish hands an event of this node's to its hub, its webhook and the
// other nodes. It never waits: each of them queues or drops.
func (s *Server) publish(e events.Event) {
	if !s.feed.hub.Publish(e) {
		return
	}
	if s.feed.hook != nil {
		s.feed.hook.Post(e)
	}
	s.place.nodes.sendEvent(e)
}

// heard takes an event another node sent over the node channel: into the
// hub only (its node posted it to the webhook).
func (s *Server) heard(e events.Event) {
	if e.Kind == events.KindDeath || e.Kind == events.KindVictory || e.Kind == events.KindDaily {
		s.scoreChanges.Add(1) // a game of that node was recorded: the titles here read the table again
	}
	s.feed.hub.Publish(e)
}

// webhookDrain is how long Shutdown lets the webhook post the events
// still queued.
const webhookDrain = 5 * time.Second

// closeWebhook gives the webhook up to webhookDrain, within ctx, to post
// the events still queued (the sessions' last ones included), then stops
// it. Shutdown calls it once every session has ended; the hub's followers
// were ended before (Hub.Close), as the server stopped serving.
func (s *Server) closeWebhook(ctx context.Context) {
	if s.feed.hook == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, webhookDrain)
	defer cancel()
	if !s.feed.hook.Drain(ctx) {
		s.log.Warn("the events webhook did not take every queued event before shutdown", "queued", s.feed.hook.Queued())
	}
	s.feed.hook.Close()
}
