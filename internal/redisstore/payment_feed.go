package redisstore

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// PaymentFeed carries "this payment changed" between processes for the
// live updates of open dashboards, over Redis pub/sub: one channel per
// merchant, a message of the merchant's id and the payment's row id (no
// payment data: a follower reads the payment itself, tenant-scoped).
//
// Publishing never blocks the payment that changed: Changed queues the
// message (a bounded queue; a full one drops it, and says so in the log)
// and one goroutine publishes the queue in pipelines. Each process holds
// one subscriber connection, subscribed to the channels of the merchants
// it has followers for. Pub/sub is at most once: a message published while
// a process is cut from Redis is not seen there.
type PaymentFeed struct {
	rdb   redis.UniversalClient
	log   *slog.Logger
	queue chan paymentChange
	stop  chan struct{}
	done  sync.WaitGroup

	mu        sync.Mutex
	pubsub    *redis.PubSub // nil until the first follower
	followers map[string]*merchantFollowers
	closed    bool
}

// paymentChange is the message: which payment of which merchant changed.
type paymentChange struct {
	MerchantID string `json:"merchant_id"`
	PaymentID  string `json:"payment_id"`
}

type follower struct{ ch chan string }

const (
	// feedQueue bounds the changes waiting to be published.
	feedQueue = 4096
	// feedBatch is the most changes published in one pipeline.
	feedBatch = 256
	// FollowerBuffer is how many changes a follower may leave unread before
	// it is dropped (its channel closed): a follower that cannot keep up
	// must not hold the others back, nor make the process keep its backlog.
	FollowerBuffer = 256
)

// NewPaymentFeed is the feed over rdb; Close stops it.
func NewPaymentFeed(rdb redis.UniversalClient, log *slog.Logger) *PaymentFeed {
	f := &PaymentFeed{rdb: rdb, log: log, queue: make(chan paymentChange, feedQueue), stop: make(chan struct{}),
		followers: map[string]*merchantFollowers{}}
	f.done.Add(1)
	go f.publish()
	return f
}

// paymentsChannel is merchantID's channel.
func paymentsChannel(merchantID string) string { return "live:payments:{" + merchantID + "}" }

// Changed queues the news that merchantID's payment paymentID changed.
func (f *PaymentFeed) Changed(merchantID, paymentID string) {
	select {
	case f.queue <- paymentChange{MerchantID: merchantID, PaymentID: paymentID}:
	default:
		f.log.Warn("live updates: publish queue full, change dropped", "merchant_id", merchantID, "payment_id", paymentID)
	}
}

// publish sends the queued changes until Close, in pipelines of what has
// gathered since the last one.
func (f *PaymentFeed) publish() {
	defer f.done.Done()
	batch := make([]paymentChange, 0, feedBatch)
	for {
		select {
		case <-f.stop:
			return
		case c := <-f.queue:
			batch = append(batch[:0], c)
		}
	gather:
		for len(batch) < feedBatch {
			select {
			case c := <-f.queue:
				batch = append(batch, c)
			default:
				break gather
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := f.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, c := range batch {
				msg, _ := json.Marshal(c)
				p.Publish(ctx, paymentsChannel(c.MerchantID), msg)
			}
			return nil
		})
		cancel()
		if err != nil {
			f.log.Warn("live updates: publish failed", "changes", len(batch), "err", err)
		}
	}
}

// Follow returns the row ids of merchantID's payments as they change, on
// any process, from the moment it returns (Redis has confirmed the
// subscription by then) until ctx ends. The channel is closed when ctx
// ends, when the feed closes, or when the follower leaves FollowerBuffer
// changes unread (ctx is not done then: the caller has missed changes).
func (f *PaymentFeed) Follow(ctx context.Context, merchantID string) (<-chan string, error) {
	fl := &follower{ch: make(chan string, FollowerBuffer)}
	channel := paymentsChannel(merchantID)
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil, redis.ErrClosed
	}
	m := f.followers[merchantID]
	if m == nil {
		m = &merchantFollowers{set: map[*follower]struct{}{}, ready: make(chan struct{})}
		var err error
		if f.pubsub == nil {
			// The first subscription: Receive waits for Redis to confirm
			// it, so a Redis that is down is an error here, not a follower
			// that hears nothing.
			ps := f.rdb.Subscribe(ctx, channel)
			if _, err = ps.Receive(ctx); err == nil {
				f.pubsub = ps
				close(m.ready)
				f.done.Add(1)
				go f.dispatch(ps)
			} else {
				_ = ps.Close()
			}
		} else {
			// Confirmed to dispatch, which closes ready.
			err = f.pubsub.Subscribe(ctx, channel)
		}
		if err != nil {
			f.mu.Unlock()
			return nil, err
		}
		f.followers[merchantID] = m
	}
	m.set[fl] = struct{}{}
	f.mu.Unlock()
	go func() {
		<-ctx.Done()
		f.unfollow(merchantID, fl)
	}()
	select {
	case <-m.ready:
		return fl.ch, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// merchantFollowers are the followers of one merchant's channel; ready is
// closed once Redis has confirmed the subscription.
type merchantFollowers struct {
	set   map[*follower]struct{}
	ready chan struct{}
}

// Followers is how many followers of merchantID's payments are in place
// (Follow has returned, or will without waiting).
func (f *PaymentFeed) Followers(merchantID string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.followers[merchantID]
	if m == nil {
		return 0
	}
	select {
	case <-m.ready:
		return len(m.set)
	default:
		return 0
	}
}

// unfollow removes fl (once) and closes its channel; the last follower of
// a merchant unsubscribes from its channel.
func (f *PaymentFeed) unfollow(merchantID string, fl *follower) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.followers[merchantID]
	if m == nil {
		return
	}
	if _, ok := m.set[fl]; !ok {
		return
	}
	delete(m.set, fl)
	close(fl.ch)
	if len(m.set) == 0 {
		delete(f.followers, merchantID)
		if f.pubsub != nil && !f.closed {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = f.pubsub.Unsubscribe(ctx, paymentsChannel(merchantID))
			cancel()
		}
	}
}

// dispatch hands each message to the followers of its merchant, and marks
// each merchant's subscription ready as Redis confirms it, until the
// subscriber connection closes. go-redis reconnects it and subscribes
// again by itself.
func (f *PaymentFeed) dispatch(ps *redis.PubSub) {
	defer f.done.Done()
	for v := range ps.ChannelWithSubscriptions() {
		switch msg := v.(type) {
		case *redis.Subscription:
			if msg.Kind != "subscribe" {
				continue
			}
			f.mu.Lock()
			for merchantID, m := range f.followers {
				if paymentsChannel(merchantID) == msg.Channel {
					select {
					case <-m.ready:
					default:
						close(m.ready)
					}
				}
			}
			f.mu.Unlock()
		case *redis.Message:
			var c paymentChange
			if err := json.Unmarshal([]byte(msg.Payload), &c); err != nil || c.PaymentID == "" || paymentsChannel(c.MerchantID) != msg.Channel {
				continue
			}
			f.mu.Lock()
			if m := f.followers[c.MerchantID]; m != nil {
				for fl := range m.set {
					select {
					case fl.ch <- c.PaymentID:
					default:
						// Too far behind: dropped. The merchant's channel
						// stays subscribed for the others, and for the next
						// follower, until unfollow finds the set empty.
						delete(m.set, fl)
						close(fl.ch)
					}
				}
			}
			f.mu.Unlock()
		}
	}
}

// Close stops publishing (what is still queued is dropped) and ends every
// follower.
func (f *PaymentFeed) Close() {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	f.closed = true
	for merchantID, m := range f.followers {
		for fl := range m.set {
			close(fl.ch)
		}
		delete(f.followers, merchantID)
	}
	ps := f.pubsub
	f.mu.Unlock()
	close(f.stop)
	if ps != nil {
		_ = ps.Close()
	}
	f.done.Wait()
}
