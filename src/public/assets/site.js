// Sorting and filtering without a server round trip. A classic script (not a module) so it
// also runs when the site is opened from file://.
(function () {
  function cellValue(row, column) {
    var cell = row.cells[column];
    if (!cell) return '';
    var sortValue = cell.getAttribute('data-sort');
    return sortValue === null ? cell.textContent.trim() : sortValue;
  }

  document.querySelectorAll('table[data-sortable]').forEach(function (table) {
    var headers = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(headers, function (header, column) {
      if (!header.hasAttribute('data-sort-type')) return;
      var numeric = header.getAttribute('data-sort-type') === 'number';
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = header.textContent;
      header.textContent = '';
      header.appendChild(button);
      button.addEventListener('click', function () {
        var ascending = header.getAttribute('aria-sort') !== 'ascending';
        Array.prototype.forEach.call(headers, function (other) {
          other.removeAttribute('aria-sort');
        });
        header.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a, column);
          var y = cellValue(b, column);
          var order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
          return ascending ? order : -order;
        });
        rows.forEach(function (row) {
          body.appendChild(row);
        });
      });
    });
  });

  var filter = document.getElementById('state-filter');
  if (filter) {
    var rows = document.querySelectorAll('tr[data-state-group]');
    var count = document.getElementById('state-filter-count');
    filter.hidden = false;
    filter.addEventListener('change', function () {
      var checked = {};
      filter.querySelectorAll('input[type=checkbox]').forEach(function (box) {
        checked[box.value] = box.checked;
      });
      var shown = 0;
      rows.forEach(function (row) {
        var visible = checked[row.getAttribute('data-state-group')] !== false;
        row.hidden = !visible;
        if (visible) shown += 1;
      });
      if (count) {
        // The words come from the page, in its interface language (docs/site.md, "Interface languages").
        var lang = document.documentElement.lang || 'en';
        var template = filter.getAttribute('data-shown') || '{shown} / {total}';
        count.textContent = template.replace('{shown}', shown.toLocaleString(lang)).replace('{total}', rows.length.toLocaleString(lang));
      }
    });
  }
})();
