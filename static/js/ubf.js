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
});
