// A "Copy" button next to a read-only field: <button data-copy="#field-id">. Says "Copied" (or what to do when the
// browser refuses) in the element named by data-copy-status.
for (const button of document.querySelectorAll("button[data-copy]")) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const field = document.querySelector(button.dataset.copy);
    const status = document.querySelector(button.dataset.copyStatus);
    try {
      await navigator.clipboard.writeText(field.value);
      status.textContent = "Copied to the clipboard.";
    } catch (error) {
      field.select();
      status.textContent = "The browser refused to copy: the token is selected, press Ctrl+C (or ⌘C).";
    }
  });
}
