// The site's play notebook starts by itself, and says what it is waiting for; so does
// the page of the table alone (the REPL app), which runs the table's code by itself.
//
// scripts/lite_site.py loads this file in the site's lab/index.html and marks the site's
// copy of play.ipynb with {"durak": {"autostart": true}} in its metadata.  In a notebook
// so marked, once it opens:
//   - its first code cell is the selected one (a click on Run runs the table, not the
//     text above it) and is scrolled to the top, where the table will be drawn;
//   - that cell runs as soon as the notebook has its kernel (the table starts by itself);
//   - while the cell runs and no table is drawn yet, a note under it says which step is
//     under way (Python starting in the page, then the game loading) and for how long;
//   - running its cells does not count as a change: only an edited cell makes the
//     browser ask "Leave site?" on a reload (outputs of this notebook are not worth
//     keeping, the notebook can be run again).
// Everything goes through the JupyterLab application that JupyterLite exposes as
// `window.jupyterapp` (the site's jupyter-lite.json sets exposeAppInBrowser) and its
// public command "notebook:run-cell"; nothing is built with npm.
(function () {
  'use strict';

  const MARK = 'durak';
  const NOTE_CLASS = 'durak-site-starting';
  const TABLE = '.durak-root .durak-status';
  const ERROR = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']";
  const STEPS = [
    'Starting Python in this page',
    'Loading the game',
  ];

  function later(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  async function theApp() {
    while (!window.jupyterapp) {
      await later(50);
    }
    return window.jupyterapp;
  }

  function sources(model) {
    const found = [];
    for (let i = 0; i < model.cells.length; i++) {
      found.push(model.cells.get(i).sharedModel.getSource());
    }
    return JSON.stringify(found);
  }

  // A run of the cells leaves the notebook "dirty" (its outputs changed); that alone
  // should not make a reload ask "Leave site?".  An edit of any cell still does.
  function onlyEditsCount(model) {
    const saved = sources(model);
    model.stateChanged.connect((_, change) => {
      if (change.name === 'dirty' && change.newValue && sources(model) === saved) {
        model.dirty = false;
      }
    });
    if (model.dirty && sources(model) === saved) {
      model.dirty = false;
    }
  }

  function isRunning(cell) {
    const prompt = cell.node.querySelector('.jp-InputArea-prompt');
    return !!prompt && prompt.textContent.trim() === '[*]:';
  }

  function kernelStatus(panel) {
    const session = panel.sessionContext.session;
    return session && session.kernel ? session.kernel.status : 'unknown';
  }

  // The note that says which step is under way (Python starting in the page, then the
  // game loading) and for how long, redrawn every 250 ms while `waiting()` holds and
  // taken away when it stops holding; the watch ends, note removed, once `over()` holds.
  // `place(note)` puts a new note on the page, `margin` is its CSS margin.
  function watchSteps(panel, { over, waiting, place, margin }) {
    let note = null;
    let kernelReady = false;
    const timer = setInterval(() => {
      if (over()) {
        if (note) {
          note.remove();
        }
        clearInterval(timer);
        return;
      }
      const status = kernelStatus(panel);
      if (status === 'idle' || status === 'busy') {
        kernelReady = true;
      }
      if (!waiting()) {
        if (note) {
          note.remove();
          note = null;
        }
        return;
      }
      if (!note) {
        note = document.createElement('div');
        note.className = NOTE_CLASS;
        note.setAttribute('role', 'status');
        note.style.cssText = 'margin: ' + margin + '; padding: 8px 12px; border-radius: 4px;'
          + ' background: var(--jp-info-color3, #e1f5fe); color: var(--jp-ui-font-color1);'
          + ' font-family: var(--jp-ui-font-family); font-size: 14px;';
        note.innerHTML = '<span class="durak-site-step"></span> '
          + '<progress max="' + STEPS.length + '" style="vertical-align: middle;"></progress>';
        place(note);
      }
      const step = kernelReady ? 2 : 1;
      const seconds = Math.round(performance.now() / 1000);
      note.querySelector('.durak-site-step').textContent = STEPS[step - 1] + '... (step '
        + step + ' of ' + STEPS.length + ', ' + seconds + ' s; the first visit takes the'
        + ' longest)';
      note.querySelector('progress').value = step - 0.5;
    }, 250);
  }

  // The note under the code cell, while it runs and no table is drawn yet.
  function watch(panel, cell) {
    watchSteps(panel, {
      over: () => panel.isDisposed || cell.isDisposed,
      waiting: () => isRunning(cell) && !cell.node.querySelector(TABLE)
        && !cell.node.querySelector(ERROR),
      place: (note) => cell.node.appendChild(note),
      margin: '6px 0 6px 72px',
    });
  }

  async function start(app, panel) {
    await panel.context.ready;
    const model = panel.context.model;
    const mark = model.getMetadata(MARK);
    if (!mark || !mark.autostart) {
      return;
    }
    const notebook = panel.content;
    const index = notebook.widgets.findIndex((c) => c.model.type === 'code');
    if (index < 0) {
      return;
    }
    const cell = notebook.widgets[index];
    notebook.activeCellIndex = index;
    notebook.deselectAll();
    onlyEditsCount(model);
    watch(panel, cell);
    await panel.revealed;
    // Lab may select the first cell again while it lays the notebook out.
    if (notebook.activeCellIndex === 0 && index !== 0) {
      notebook.activeCellIndex = index;
      notebook.deselectAll();
    }
    cell.node.scrollIntoView({ block: 'start' });
    // The session has chosen its kernel (without this, a run opens "Select Kernel");
    // the kernel itself may still be starting: the run waits for it.
    await panel.sessionContext.ready;
    if (app.shell.currentWidget === panel && notebook.activeCellIndex === index
        && !isRunning(cell) && !cell.node.querySelector(TABLE)) {
      await app.commands.execute('notebook:run-cell');
    }
  }

  // The table alone (the REPL app, scripts/lite_site.py's TABLE_PATH): a console that
  // runs the table's code as it opens.  The same note, under the console's cells, until
  // the table is drawn (or an error is shown).
  function watchConsole(panel) {
    const drawn = () => {
      const node = panel.console.node;
      return !!(node.querySelector(TABLE) || node.querySelector(ERROR));
    };
    watchSteps(panel, {
      over: () => panel.isDisposed || drawn(),
      waiting: () => true,
      place: (note) => panel.console.node.prepend(note),
      margin: '12px 72px',
    });
  }

  theApp().then(async (app) => {
    await app.restored;
    const seen = new WeakSet();
    const check = () => {
      for (const widget of app.shell.widgets('main')) {
        if (seen.has(widget)) {
          continue;
        }
        if (widget.content && widget.sessionContext && widget.context) {
          seen.add(widget);
          start(app, widget).catch((error) => console.error('durak-start:', error));
        } else if (widget.console && widget.sessionContext) {
          seen.add(widget);
          watchConsole(widget);
        }
      }
    };
    // JupyterLab's shell says when its layout changes; the REPL's, when its one widget came.
    (app.shell.layoutModified || app.shell.currentChanged).connect(check);
    check();
  });
})();
