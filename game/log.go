package game

// MsgKind classifies a message so the UI can colour it; the core knows no
// colours.
type MsgKind uint8

// The kinds of message, after the tutorials' colour table.
const (
	MsgInfo        MsgKind = iota // plain information
	MsgWelcome                    // the greeting at the start of a game
	MsgPlayerHit                  // the player strikes something
	MsgEnemyHit                   // something strikes the player
	MsgEnemyDeath                 // a monster dies
	MsgPlayerDeath                // the player dies
	MsgDescend                    // the player takes the stairs
	MsgHeal                       // HP recovered
	MsgStatus                     // an effect begins or ends
)

// Message is one line of the message log. Repeats of the same text in a row
// are folded into one message with a Count (shown as "x3").
type Message struct {
	Text  string
	Kind  MsgKind
	Count int // how many times in a row it happened, at least 1
	Turn  int // the turn it happened on
}

// maxLog is how many messages a game keeps (and saves); older ones are dropped.
const maxLog = 500

func (g *Game) logf(kind MsgKind, text string) {
	s := &g.s
	if n := len(s.Log); n > 0 && s.Log[n-1].Text == text && s.Log[n-1].Kind == kind {
		s.Log[n-1].Count++
		s.Log[n-1].Turn = s.Turn
		return
	}
	if len(s.Log) >= maxLog {
		s.Log = append(s.Log[:0], s.Log[len(s.Log)-maxLog+1:]...)
	}
	s.Log = append(s.Log, Message{Text: text, Kind: kind, Count: 1, Turn: s.Turn})
}
