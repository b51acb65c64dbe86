package server

// This file: the admins' host tools across the nodes of a cluster, over
// the node channel (server/cluster): a broadcast reaches every other live
// node's sessions, and a kick finds the player on whichever node the
// cluster's listing has them; and this node's side of both, for an admin
// on another node (nodeLocal.Broadcast, nodeLocal.Kick).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"charm.land/ssh"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/cluster"
	"github.com/grotto-game/grotto/store"
)

// nodeAnswer is one other node's answer to a broadcast.
type nodeAnswer struct {
	node     string
	sessions int   // sessions that show the banner there
	err      error // nil when the node answered
}

// broadcastOthers shows text on every other node with a live
// announcement, asking them all at once, each for at most
// nodeCallTimeout, and returns their answers in node order. Errors: the
// store's, listing the nodes (then no other node was asked).
func (n *nodes) broadcastOthers(text string) ([]nodeAnswer, error) {
	ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
	names, err := n.st.Nodes(ctx)
	cancel()
	if err != nil {
		return nil, err
	}
	names = slices.DeleteFunc(names, func(node string) bool { return node == n.self })
	answers := make([]nodeAnswer, len(names))
	var wg sync.WaitGroup
	for i, node := range names {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), nodeCallTimeout)
			defer cancel()
			sessions, err := n.peers.Broadcast(ctx, node, text)
			n.called(err)
			answers[i] = nodeAnswer{node: node, sessions: sessions, err: err}
		})
	}
	wg.Wait()
	return answers, nil
}

// broadcastElsewhere ends an admin's broadcast on a cluster, once local
// sessions here showed it: it asks every other node (broadcastOthers) and
// tells the admin "sent to N sessions on M nodes" on out (this node
// counted), then on errOut one line naming each node that did not get it
// and why. It returns 0: the broadcast went out (a node that did not get
// it is most likely stopped, and its sessions with it).
func (s *Server) broadcastElsewhere(sess ssh.Session, out, errOut io.Writer, text string, local int) int {
	answers, err := s.place.nodes.broadcastOthers(text)
	sessions, reached := local, 1
	var missed []string
	for _, a := range answers {
		if a.err != nil {
			missed = append(missed, a.node)
			continue
		}
		sessions += a.sessions
		reached++
	}
	s.log.Info("an admin broadcast a message", "admin", s.adminOf(sess), "sessions", sessions, "nodes", reached,
		"missed", strings.Join(missed, ","), "text", text)
	fmt.Fprintf(out, "sent to %s on %s\n", count(sessions, "session"), count(reached, "node"))
	if err != nil {
		s.log.Warn("a broadcast could not list the other nodes", "err", err)
		fmt.Fprintln(errOut, "grotto: the other nodes could not be listed (the database does not answer): only this node's sessions got it")
	}
	for _, a := range answers {
		if a.err != nil {
			s.log.Warn("a broadcast did not reach a node", "node", a.node, "err", a.err)
			fmt.Fprintf(errOut, "grotto: node %s did not get it: %s\n", tui.Inert(a.node), unanswered(a.err))
		}
	}
	return 0
}

// unanswered says for an admin why another node did not do what its
// channel asked; err is the cluster.Client's.
func unanswered(err error) string {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "it has no node channel (--cluster-listen), or it just stopped"
	case silent(err):
		return "it does not answer"
	case errors.Is(err, cluster.ErrUntrusted):
		return "it does not trust this node (another cluster secret)"
	}
	return tui.Inert(err.Error())
}

// named returns the listed game of another node whose player is listed
// under name, without regard to case.
func (n *nodes) named(name string) (store.NodeGame, bool) {
	for _, g := range n.remote() {
		if g.Name != "" && strings.EqualFold(g.Name, name) {
			return g, true
		}
	}
	return store.NodeGame{}, false
}

// kickElsewhere runs `kick NAME` when no player here is listed under
// name: it finds the player's node in the cluster's listing (at most one
// announcement old) and asks that node to end the session, waiting as
// long as that node waits (kickWait) and a call more. It tells the admin
// which node, and returns the exit status as kick does.
func (s *Server) kickElsewhere(sess ssh.Session, out, errOut io.Writer, name string) int {
	shown := tui.Inert(name)
	g, ok := s.place.nodes.named(name) // no listing off a cluster
	if !ok {
		if s.place.clustered() {
			fmt.Fprintf(errOut, "grotto: no live game named %s on any node\n", shown)
		} else {
			fmt.Fprintf(errOut, "grotto: no live game named %s on this server\n", shown)
		}
		return 1
	}
	node := tui.Inert(g.Node)
	s.log.Info("an admin kicked a player on another node", "admin", s.adminOf(sess), "name", shown, "node", g.Node)
	ctx, cancel := context.WithTimeout(context.Background(), kickWait+nodeCallTimeout)
	defer cancel()
	switch err := s.place.nodes.called(s.place.nodes.peers.Kick(ctx, g.Node, g.Fingerprint)); {
	case err == nil:
		fmt.Fprintf(out, "kicked %s on node %s: the session has ended.\n", shown, node)
		return 0
	case errors.Is(err, cluster.ErrNotHere):
		fmt.Fprintf(errOut, "grotto: %s left node %s just now\n", shown, node)
	case errors.Is(err, cluster.ErrStillLeaving):
		fmt.Fprintf(errOut, "grotto: %s on node %s was told to leave but has not let go after %s; it ends once its game is saved\n", shown, node, tui.Duration(kickWait))
	default:
		s.log.Warn("a kick did not reach the player's node", "node", g.Node, "err", err)
		fmt.Fprintf(errOut, "grotto: %s plays on node %s, which did not kick them: %s\n", shown, node, unanswered(err))
	}
	return 1
}

// Broadcast implements cluster.Local: an admin's broadcast from another
// node, made safe again here (broadcastText), shown by every session.
func (l nodeLocal) Broadcast(_ context.Context, text string) (int, error) {
	text, err := broadcastText(text)
	if err != nil {
		return 0, err
	}
	return l.s.announce(text), nil
}

// Kick implements cluster.Local: an admin's kick from another node
// (placement.kick).
func (l nodeLocal) Kick(ctx context.Context, fp string) error {
	return l.s.place.kick(ctx, fp)
}
