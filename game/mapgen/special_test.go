package mapgen

import (
	"fmt"
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

// TestEverySpecialRoomAppearsAndIsWellFormed: over 200 seeds each kind of
// special room is built on rooms-and-corridors levels (depth 1) and in the
// drunkard's-walk caverns (depth 3); a vault is closed rock but for its
// secret door, a treasure room hides traps, a shrine has two or three
// altars, and every spot the game fills is walkable and reachable.
func TestEverySpecialRoomAppearsAndIsWellFormed(t *testing.T) {
	for _, depth := range []int{1, 2, 3} {
		count := map[RoomKind]int{}
		for seed := range uint64(200) {
			lvl := build(depth, seed)
			m := lvl.Map
			closed := world.NewDistanceMap(w, h)
			closed.Compute(m, lvl.Start, world.Unreached)
			open := &world.Map{W: m.W, H: m.H, Tiles: append([]world.Tile(nil), m.Tiles...)}
			for i, t := range open.Tiles {
				open.Tiles[i] = t.Found()
			}
			opened := world.NewDistanceMap(w, h)
			opened.Compute(open, lvl.Start, world.Unreached)
			for _, r := range lvl.Rooms {
				count[r.Kind]++
				where := fmt.Sprintf("depth %d seed %d %s at %+v", depth, seed, r.Kind, r.Rect)
				if len(r.Spots) == 0 {
					t.Fatalf("%s: no spots", where)
				}
				for _, p := range r.Spots {
					if !inside(r.Rect, p) || !m.At(p).Walkable() || opened.At(p) == world.Unreached {
						t.Fatalf("%s: spot %v is %v, distance %d", where, p, m.At(p), opened.At(p))
					}
					if r.Kind == Vault && closed.At(p) != world.Unreached {
						t.Fatalf("%s: the inside %v is reached without the secret door", where, p)
					}
					if r.Kind != Vault && closed.At(p) == world.Unreached {
						t.Fatalf("%s: spot %v unreachable", where, p)
					}
				}
				switch r.Kind {
				case Vault:
					if m.At(r.Door) != world.SecretDoor {
						t.Fatalf("%s: door %v is %v", where, r.Door, m.At(r.Door))
					}
					n := 0
					ring(r.Rect, func(p world.Pos, _ bool) {
						if m.At(p) != world.Wall {
							n++
						}
					})
					if n != 1 {
						t.Fatalf("%s: %d tiles of its wall are not wall", where, n)
					}
				case TreasureRoom:
					traps := 0
					for y := r.Rect.Y; y < r.Rect.Y+r.Rect.H; y++ {
						for x := r.Rect.X; x < r.Rect.X+r.Rect.W; x++ {
							if tl := m.At(world.Pos{X: x, Y: y}); tl.Trap() && tl.Hidden() {
								traps++
							}
						}
					}
					if traps < 2 {
						t.Fatalf("%s: %d hidden traps", where, traps)
					}
				case Shrine:
					for _, p := range r.Spots {
						if m.At(p) != world.Altar {
							t.Fatalf("%s: spot %v is %v, not an altar", where, p, m.At(p))
						}
					}
				}
			}
		}
		for _, k := range RoomKinds {
			if count[k] == 0 && !(k == Den && depth == 1) {
				t.Errorf("depth %d: no %s in 200 seeds (%v)", depth, k, count)
			}
		}
	}
}

// TestSpecialRoomsComeOnSomeLevelsNotAll counts the special rooms of 100
// seeds at every depth (the variety numbers of docs/balance.md): some
// levels have none, and every kind is built.
func TestSpecialRoomsComeOnSomeLevelsNotAll(t *testing.T) {
	for depth := 1; depth <= LastDepth; depth++ {
		count, none := map[RoomKind]int{}, 0
		for seed := range uint64(100) {
			lvl := build(depth, seed)
			if len(lvl.Rooms) == 0 {
				none++
			}
			for _, r := range lvl.Rooms {
				count[r.Kind]++
			}
		}
		t.Logf("depth %d over 100 seeds: vault %d, treasure room %d, den %d, shrine %d; no special room on %d levels",
			depth, count[Vault], count[TreasureRoom], count[Den], count[Shrine], none)
		if none == 0 || none == 100 {
			t.Errorf("depth %d: %d of 100 levels have no special room", depth, none)
		}
	}
}

// TestTheSameSeedBuildsTheSameSpecialRooms: a level is a function of its RNG.
func TestTheSameSeedBuildsTheSameSpecialRooms(t *testing.T) {
	for depth := 1; depth <= LastDepth; depth++ {
		for seed := range uint64(20) {
			a, b := build(depth, seed), build(depth, seed)
			if fmt.Sprint(a.Rooms) != fmt.Sprint(b.Rooms) || fmt.Sprint(a.Map.Tiles) != fmt.Sprint(b.Map.Tiles) {
				t.Fatalf("depth %d seed %d: two builds differ", depth, seed)
			}
		}
	}
}
