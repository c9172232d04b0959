package rest

import "html/template"

// pageHead opens every HTML page the API serves (the payment link, the
// sandbox's 3-D Secure page): mobile-sized and never indexed.
const pageHead = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
`

// linkPage is the hosted payment link: the merchant's branding and the
// order summary beside Hyperswitch's checkout SDK (Kind "checkout"), or the
// payment's outcome. Every merchant-supplied value is placed in its own
// html/template context: the theme and button colours as CSS values, the
// logo and background image as URLs (an unsafe one becomes "#ZgotmplZ"),
// names and details as text, and the checkout's data as a script value.
var linkPage = template.Must(template.New("link").Parse(pageHead + `<link rel="icon" href="data:,">
<title>{{.Title}}</title>
<style>
  :root { --primary: {{.Theme}}; color-scheme: light; }
  body { margin: 0; min-height: 100vh; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
         background: {{with .BackgroundColour}}{{.}}{{else}}#f4f5f7{{end}}; color: #1d2330;
         {{with .BackgroundImage}}background-image: url("{{.}}"); background-size: cover;{{end}} }
  .link { display: flex; flex-wrap: wrap; gap: 2rem; justify-content: center; padding: 2rem 1rem; }
  .summary { flex: 1 1 18rem; max-width: 26rem; background: var(--primary); color: #fff; border-radius: 14px; padding: 2rem; }
  .pay, .outcome { flex: 1 1 22rem; max-width: 30rem; background: #fff; border-radius: 14px; padding: 2rem;
         box-shadow: 0 6px 28px rgba(20, 30, 60, .12); }
  .logo { max-height: 3rem; max-width: 10rem; display: block; margin-bottom: 1rem; }
  .seller { font-size: 1.1rem; font-weight: 600; margin: 0; }
  .amount { font-size: 2rem; font-weight: 700; margin: .5rem 0; }
  .summary p, .summary dd, .summary dt { margin: .2rem 0; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .3rem 1rem; margin: 1rem 0; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .bold { font-weight: 700; }
  ul.items { list-style: none; padding: 0; margin: 1rem 0; }
  ul.items li { display: flex; justify-content: space-between; gap: 1rem; padding: .3rem 0;
                border-bottom: 1px solid rgba(255, 255, 255, .25); }
  #pay { width: 100%; margin-top: 1.2rem; font: inherit; font-weight: 600; border: 0; border-radius: 10px;
            padding: .8rem 1rem; cursor: pointer;
            background: {{with .ButtonColour}}{{.}}{{else}}var(--primary){{end}};
            color: {{with .ButtonTextColour}}{{.}}{{else}}#fff{{end}}; }
  #pay:disabled { opacity: .6; cursor: progress; }
  #message { color: #a3261b; min-height: 1.5rem; }
  .outcome h1 { font-size: 1.4rem; margin: 0 0 .4rem; }
  a.button { display: inline-block; margin-top: 1rem; color: #fff; background: var(--primary); border-radius: 10px;
             padding: .7rem 1.2rem; text-decoration: none; font-weight: 600; }
</style>
{{if .Checkout}}<script src="{{.SDKURL}}"></script>{{end}}
</head>
<body>
<main class="link" data-page="{{.Kind}}">
{{if and .Checkout .Summary}}{{template "summary" .}}{{end}}
{{if .Checkout}}
  <section class="pay">
    {{with .HeaderText}}<h2>{{.}}</h2>{{end}}
    <div id="unified-checkout"></div>
    <button id="pay" type="button">{{.ButtonText}}</button>
    <p id="message" role="alert"></p>
  </section>
{{else}}
  <section class="outcome">
    <h1 id="outcome">{{.Title}}</h1>
    <p>{{.Message}}</p>
    {{if .PaymentID}}<dl>
      {{with .SellerName}}<dt>Paid to</dt><dd>{{.}}</dd>{{end}}
      <dt>Amount</dt><dd>{{.Amount}} {{.Currency}}</dd>
      <dt>Payment</dt><dd><code>{{.PaymentID}}</code></dd>
      {{with .Paid}}<dt>Date</dt><dd>{{.}}</dd>{{end}}
    </dl>{{end}}
    {{with .ReturnURL}}<a class="button" href="{{.}}">Return to the merchant</a>{{end}}
  </section>
{{end}}
</main>
{{with .Checkout}}<script>
const link = {{.}};
const hyper = Hyper(link.publishableKey, { customBackendUrl: location.origin });
const widgets = hyper.widgets({ clientSecret: link.clientSecret,
  appearance: { variables: { colorPrimary: link.theme } } });
widgets.create("payment", { layout: link.layout, displaySavedPaymentMethods: link.savedMethods,
  hideCardNicknameField: link.hideNickname }).mount("#unified-checkout");
const button = document.getElementById("pay"), message = document.getElementById("message");
button.addEventListener("click", async () => {
  button.disabled = true;
  message.textContent = "";
  try {
    const r = await hyper.confirmPayment({ widgets, redirect: "if_required",
      confirmParams: { return_url: link.returnUrl || location.origin + link.statusUrl } });
    if (r && r.error && !r.status) {
      message.textContent = r.error.message || "The payment could not be made.";
      button.disabled = false;
      return;
    }
    location.assign(link.statusUrl);
  } catch (e) {
    message.textContent = String(e);
    button.disabled = false;
  }
});
</script>{{end}}
</body>
</html>
{{define "summary"}}<section class="summary">
    {{with .Logo}}<img class="logo" src="{{.}}" alt="">{{end}}
    {{if .ShowSeller}}<p class="seller">{{.SellerName}}</p>{{end}}
    <p class="amount">{{.Amount}} {{.Currency}}</p>
    {{with .Description}}<p>{{.}}</p>{{end}}
    {{with .Items}}<ul class="items">{{range .}}<li><span>{{.Name}} × {{.Quantity}}</span><span>{{.Amount}}</span></li>{{end}}</ul>{{end}}
    {{with .Details}}<dl class="details">{{range .}}<dt{{if .KeyBold}} class="bold"{{end}}>{{.Key}}</dt><dd{{if .ValueBold}} class="bold"{{end}}>{{.Value}}</dd>{{end}}</dl>{{end}}
    <p><small>Payment <code>{{.PaymentID}}</code></small></p>
  </section>{{end}}
`))
