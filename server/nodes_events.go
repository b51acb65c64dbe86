package server

// This file: the live events feed across the nodes of a cluster (feed.go).
// Each node sends the events of its own games to every other live node
// over the node channel (server/cluster, POST /v1/events), which puts
// them in its hub; none goes through the database (frames do not
// either: PostgreSQL is the cluster's bottleneck, and a NOTIFY would
// hold a connection per node and cap a payload at 8000 bytes). A node
// that does not answer misses the events sent meanwhile: the feed is
// live, not a log (the webhook, posted by the event's own node, is the
// one that retries).

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/grotto-game/grotto/server/cluster"
	"github.com/grotto-game/grotto/server/events"
)

// eventOutbox is how many events may wait to be sent to the other nodes;
// beyond it the newest are dropped (counted as channel failures): a
// cluster that cannot keep up with a few events a second is cut off.
const eventOutbox = 1000

// eventBatch is the most events sent in one call (each line at most
// events.MaxLine bytes, within cluster.MaxEvents).
const eventBatch = cluster.MaxEvents / events.MaxLine

// nodeListAge is how long the list of the other nodes is used before
// the store is asked again, when there are events to send.
const nodeListAge = 2 * time.Second

// sendEvent queues e, an event of this node's, for every other node; it
// never waits. A node with no peers sends nothing.
func (n *nodes) sendEvent(e events.Event) {
	if !n.shared() || n.outbox == nil {
		return
	}
	select {
	case n.outbox <- e:
	default:
		n.failures.Add(1) // the other nodes miss it
	}
}

// sendEvents sends the queued events to the other nodes, in order, a
// batch at a time to all of them at once (each call bounded by
// nodeCallTimeout), until stop closes.
func (n *nodes) sendEvents(stop <-chan struct{}) {
	var (
		others []string
		listed time.Time
	)
	for {
		var batch []events.Event
		select {
		case <-stop:
			return
		case e := <-n.outbox:
			batch = append(batch, e)
		}
	more:
		for len(batch) < eventBatch {
			select {
			case e := <-n.outbox:
				batch = append(batch, e)
			default:
				break more
			}
		}
		if time.Since(listed) > nodeListAge {
			ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
			names, err := n.st.Nodes(ctx)
			cancel()
			if err == nil {
				others, listed = slices.DeleteFunc(names, func(node string) bool { return node == n.self }), time.Now()
			}
		}
		var body bytes.Buffer
		for _, e := range batch {
			body.Write(e.Line())
		}
		var wg sync.WaitGroup
		for _, node := range others {
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), nodeCallTimeout)
				defer cancel()
				n.called(n.peers.Events(ctx, node, body.Bytes()))
			})
		}
		wg.Wait()
	}
}

// Events implements cluster.Local: events another node's games made, into
// this node's hub (never to the webhook: their node posts them). A line
// that is not an event is skipped.
func (l nodeLocal) Events(lines [][]byte) {
	for _, line := range lines {
		if e, err := events.Parse(line); err == nil {
			l.s.heard(e)
		}
	}
}
