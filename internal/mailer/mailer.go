// Package mailer sends the few e-mails Switchyard writes (a dashboard
// invitation's link) over SMTP: plain text, one recipient, TLS from the
// start for smtps://, STARTTLS (required) for smtp://, except to a loopback
// host (a local relay or a test server), and PLAIN authentication when the
// URL carries a user. It knows nothing of what the messages say.
package mailer

import (
	"context"
	"crypto/tls"
	"fmt"
	"mime"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Mailer sends through one SMTP server.
type Mailer struct {
	addr     string
	implicit bool // smtps://: TLS from the first byte
	loopback bool // a local relay: no TLS needed
	auth     sasl.Client
	from     *mail.Address
	// Timeout bounds one message's whole exchange.
	Timeout time.Duration
}

// New is a mailer for rawURL (smtp:// or smtps://) sending from from.
func New(rawURL, from string) (*Mailer, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, fmt.Errorf("mailer: want smtp://[user:password@]host[:port] or smtps://…")
	}
	sender, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("mailer: sender %q: %w", from, err)
	}
	m := &Mailer{implicit: u.Scheme == "smtps", from: sender, Timeout: 20 * time.Second}
	port := u.Port()
	if port == "" {
		port = "587"
		if m.implicit {
			port = "465"
		}
	}
	m.addr = net.JoinHostPort(u.Hostname(), port)
	ip := net.ParseIP(u.Hostname())
	m.loopback = u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback())
	if u.User != nil {
		password, _ := u.User.Password()
		m.auth = sasl.NewPlainClient("", u.User.Username(), password)
	}
	return m, nil
}

// Send delivers a plain-text message to one address.
func (m *Mailer) Send(ctx context.Context, to, subject, text string) error {
	rcpt, err := mail.ParseAddress(to)
	if err != nil {
		return fmt.Errorf("mailer: recipient: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, m.Timeout)
	defer cancel()
	var c *smtp.Client // greets the server (EHLO) on its first command
	host, _, _ := net.SplitHostPort(m.addr)
	tlsConfig := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	d := &net.Dialer{}
	conn, err := d.DialContext(ctx, "tcp", m.addr)
	if err != nil {
		return fmt.Errorf("mailer: %w", err)
	}
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	switch {
	case m.implicit:
		c = smtp.NewClient(tls.Client(conn, tlsConfig))
	case m.loopback:
		c = smtp.NewClient(conn)
	default: // an invitation's link is a secret: never in clear text across a network
		if c, err = smtp.NewClientStartTLS(conn, tlsConfig); err != nil {
			conn.Close()
			return fmt.Errorf("mailer: starttls: %w", err)
		}
	}
	defer c.Close()
	if m.auth != nil {
		if err := c.Auth(m.auth); err != nil {
			return fmt.Errorf("mailer: auth: %w", err)
		}
	}
	msg := message(m.from, rcpt, subject, text, time.Now())
	if err := c.SendMail(m.from.Address, []string{rcpt.Address}, strings.NewReader(msg)); err != nil {
		return fmt.Errorf("mailer: %w", err)
	}
	return c.Quit()
}

// message is an RFC 5322 message: UTF-8 plain text, the subject encoded
// as a MIME word when it needs one, lines ending in CRLF.
func message(from, to *mail.Address, subject, text string, at time.Time) string {
	var b strings.Builder
	b.WriteString("From: " + from.String() + "\r\n")
	b.WriteString("To: " + to.String() + "\r\n")
	b.WriteString("Subject: " + mime.QEncoding.Encode("utf-8", subject) + "\r\n")
	b.WriteString("Date: " + at.Format(time.RFC1123Z) + "\r\n")
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n"))
	return b.String()
}
