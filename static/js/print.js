// A button with data-print prints the page (the recovery codes; a script file, as the site's CSP allows no inline one).
document.querySelectorAll("[data-print]").forEach((button) => button.addEventListener("click", () => window.print()));
