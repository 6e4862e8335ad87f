package screens

import (
	"context"
	"sync/atomic"
	"time"

	"jiaohao/model"
)

// The kiosk's tiles promise a wait before the customer taps. It is the
// estimate the ticket itself will get (model.NextPositions), asked again
// after changes, at most every estimateGap (a busy hall changes many
// times a second, and a tile seconds old serves a customer choosing a
// service as well), and every estimateIdle in a quiet hall, where the
// windows' work moves on without events.
const (
	estimateGap  = 3 * time.Second
	estimateIdle = 30 * time.Second
)

// kioskEstimates is the kiosk's follower of the estimates.
type kioskEstimates struct {
	kick  chan struct{}
	next  map[string]model.Position // on the UI goroutine
	shown atomic.Int64
}

// startEstimates follows the store's estimates when it has them;
// without, the tiles keep the rough figure of waitText.
func (k *Kiosk) startEstimates(ctx context.Context, st model.Store) {
	np, ok := st.(model.NextPositions)
	if !ok {
		return
	}
	k.est.kick = make(chan struct{}, 1)
	k.wg.Go(func() { k.followEstimates(ctx, np) })
}

// askEstimates asks for fresh estimates after a change; a request already
// waiting covers it (and without a follower, kick is nil: never ready).
func (k *Kiosk) askEstimates() {
	select {
	case k.est.kick <- struct{}{}:
	default:
	}
}

func (k *Kiosk) followEstimates(ctx context.Context, np model.NextPositions) {
	idle := time.NewTimer(estimateIdle)
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-k.est.kick:
		case <-idle.C:
		}
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		got, err := np.NextPositions(c)
		cancel()
		if err == nil {
			onUI(func() {
				k.est.next = got
				k.est.shown.Add(1)
				k.refresh()
			})
		}
		idle.Reset(estimateIdle)
		select {
		case <-ctx.Done():
			return
		case <-time.After(estimateGap):
		}
	}
}

// EstimatesShown counts the estimates the tiles have shown.
func (k *Kiosk) EstimatesShown() int64 { return k.est.shown.Load() }

// waitText is "N waiting · about M min": the store's estimate for a
// number taken now, or, until it has one (or from a store that gives
// none), the queue over the open windows that serve it at the configured
// service time.
func (k *Kiosk) waitText(s model.ServiceCount) string {
	var pos model.Position
	if p, ok := k.est.next[s.Code]; ok {
		pos = p
	} else {
		windows := 0
		for _, w := range k.snap.Windows {
			if w.Status == model.WindowOpen && w.Serves(s.Code) {
				windows++
			}
		}
		pos = model.Position{NoWindow: windows == 0, ETASeconds: int(k.settings.DefaultServiceTime.Seconds()) * s.Waiting / max(windows, 1)}
	}
	return tr("kiosk.waiting", kv("N", s.Waiting)) + " · " + etaText(pos)
}
