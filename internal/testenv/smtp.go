package testenv

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTPMessage is one message an SMTPServer took.
type SMTPMessage struct {
	From, User string
	To         []string
	Data       string
}

// SMTPServer is an SMTP server in the test's process (emersion/go-smtp),
// on a loopback port, that keeps what it is sent. With a user and
// password it requires PLAIN authentication with them.
type SMTPServer struct {
	// URL is the server's smtp:// URL, credentials included.
	URL string

	mu       sync.Mutex
	messages []SMTPMessage
	arrived  chan struct{}
}

// StartSMTP starts an SMTP server for the test; user "" asks for no
// authentication.
func StartSMTP(t testing.TB, user, password string) *SMTPServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &SMTPServer{URL: "smtp://" + ln.Addr().String(), arrived: make(chan struct{}, 100)}
	if user != "" {
		s.URL = (&url.URL{Scheme: "smtp", User: url.UserPassword(user, password), Host: ln.Addr().String()}).String()
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &smtpSession{server: s, user: user, password: password}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true // loopback, in a test
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// Messages are the messages taken so far.
func (s *SMTPServer) Messages() []SMTPMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SMTPMessage(nil), s.messages...)
}

// Wait waits up to timeout for n messages in all, and returns them.
func (s *SMTPServer) Wait(t testing.TB, n int, timeout time.Duration) []SMTPMessage {
	t.Helper()
	deadline := time.After(timeout)
	for len(s.Messages()) < n {
		select {
		case <-s.arrived:
		case <-deadline:
			t.Fatalf("the SMTP server took %d messages, want %d", len(s.Messages()), n)
		}
	}
	return s.Messages()
}

type smtpSession struct {
	server         *SMTPServer
	user, password string
	authed         string
	msg            SMTPMessage
}

func (s *smtpSession) AuthMechanisms() []string {
	if s.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		if username != s.user || password != s.password {
			return smtp.ErrAuthFailed
		}
		s.authed = username
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.user != "" && s.authed == "" {
		return smtp.ErrAuthRequired
	}
	s.msg = SMTPMessage{From: from, User: s.authed}
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.msg.To = append(s.msg.To, to)
	return nil
}

func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.msg.Data = string(b)
	s.server.mu.Lock()
	s.server.messages = append(s.server.messages, s.msg)
	s.server.mu.Unlock()
	s.server.arrived <- struct{}{}
	return nil
}

func (s *smtpSession) Reset()        { s.msg = SMTPMessage{} }
func (s *smtpSession) Logout() error { return nil }
