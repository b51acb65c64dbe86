package game

import (
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

// FuzzDecode: whatever the bytes, Decode returns a game or an error, never
// panics, and a game it returns plays on.
func FuzzDecode(f *testing.F) {
	g := New(3, testData)
	play(g, randomCommands(3, 50))
	good, _ := g.Encode()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte("GRTO\x00\x01\x00\x00\x00\x00{}"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, blob []byte) {
		g, err := Decode(blob, testData)
		if err != nil {
			return
		}
		for _, c := range randomCommands(1, 20) {
			g.Apply(c)
		}
		g.Encode()
	})
}

// FuzzCommands: any command, however odd its fields, is applied or refused,
// never panics, and a refusal changes nothing; one that is applied comes
// back unchanged from the journal.
func FuzzCommands(f *testing.F) {
	f.Add(uint8(ActMove), 1, 0, 0, 0, 0, uint8(0), "")
	f.Add(uint8(ActThrow), 0, 0, 3, 99, -5, uint8(0), "")
	f.Add(uint8(ActCheat), 0, 0, 0, 0, 0, uint8(CheatCreate), "dragon")
	f.Add(uint8(ActUse), 0, 0, -1, 1<<30, 1<<30, uint8(0), "")
	f.Add(uint8(ActLevelUp), 1, 0, 0, 0, 0, uint8(StatPower), "")
	f.Add(uint8(ActUse), 0, 0, 4, 0, 0, uint8(0), "")
	f.Fuzz(func(t *testing.T, action uint8, dx, dy, item, tx, ty int, cheat uint8, kind string) {
		g := New(5, testData)
		give(g, HealthPotion, FireballScroll, ConfusionScroll, PoisonPotion, Dagger, ChainMail)
		if dx&1 == 1 { // half the games wait on a level-up
			g.s.XP = XPToNextLevel(1)
		}
		c := Command{Action: Action(action), DX: dx, DY: dy, Item: item, Target: world.Pos{X: tx, Y: ty}, Cheat: Cheat(cheat), Kind: ItemKind(kind), Stat: Stat(cheat)}
		before, _ := g.Encode()
		if _, err := g.Apply(c); err != nil {
			if after, _ := g.Encode(); string(after) != string(before) {
				t.Fatalf("refused %+v (%v) but changed the game", c, err)
			}
			return
		}
		// Only commands that happened are journaled: those must survive it.
		back, err := DecodeCommand(EncodeCommand(c))
		if err != nil || back != c.Normalized() {
			t.Fatalf("journal round trip of %+v gave %+v, %v", c, back, err)
		}
	})
}
