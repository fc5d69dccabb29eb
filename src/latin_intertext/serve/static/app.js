// Hovering a matched word lights up the same lemma everywhere on the page; the query list can be filtered.
document.addEventListener("mouseover", (e) => {
  const lemma = e.target.dataset && e.target.dataset.lemma;
  document.querySelectorAll("mark.active").forEach((m) => m.classList.remove("active"));
  if (lemma) document.querySelectorAll(`mark[data-lemma="${CSS.escape(lemma)}"]`).forEach((m) => m.classList.add("active"));
});
document.addEventListener("DOMContentLoaded", () => {
  const filter = document.getElementById("filter");
  if (filter) filter.addEventListener("input", () => {
    const needle = filter.value.toLowerCase();
    document.querySelectorAll("table.queries tbody tr").forEach((tr) => {
      tr.style.display = tr.textContent.toLowerCase().includes(needle) ? "" : "none";
    });
  });
  const q = document.getElementById("q");
  const count = document.getElementById("count");
  if (q && count) {
    // Long pastes are refused here with the reason, before they make an over-long URL.
    const max = Number(q.dataset.max);
    const update = () => {
      const over = q.value.length > max;
      count.textContent = `${q.value.length.toLocaleString("en")} / ${max.toLocaleString("en")} characters` + (over ? ": too long, search a shorter passage" : "");
      count.classList.toggle("over", over);
      return over;
    };
    q.addEventListener("input", update);
    update();
    q.form.addEventListener("submit", (e) => { if (update()) e.preventDefault(); });
    q.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !update()) q.form.submit(); });
  }
});
