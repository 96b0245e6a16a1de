// The site's only script besides htmx (the Content-Security-Policy allows no inline script).
document.addEventListener("DOMContentLoaded", function () {
  // Print buttons: <button data-print>.
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () {
      window.print();
    });
  });
  // The upload form: the button is disabled and "the file is being checked" shown on submit.
  var form = document.getElementById("upload-form");
  if (form) {
    form.addEventListener("submit", function () {
      var button = document.getElementById("upload-button");
      var progress = document.getElementById("upload-progress");
      if (button) button.disabled = true;
      if (progress) progress.classList.remove("d-none");
    });
  }
  // <form data-submit-once>: a double click sends the form once (issue 22: "Anmäl paret"
  // clicked twice). The second submit is cancelled; the buttons are disabled after this submit
  // has taken their values, so a named submit button still reaches the server.
  document.querySelectorAll("form[data-submit-once]").forEach(function (f) {
    f.addEventListener("submit", function (event) {
      if (f.dataset.submitted) {
        event.preventDefault();
        return;
      }
      f.dataset.submitted = "1";
      window.setTimeout(function () {
        f.querySelectorAll("button[type=submit], input[type=submit]").forEach(function (b) {
          b.disabled = true;
        });
      }, 0);
    });
  });
});
