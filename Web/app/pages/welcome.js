// `/welcome` (issue #33 point 2): the first screen of a newcomer. What Waymark does in three
// sentences, then a card per job; a card keeps its job (the bar follows) and opens the job's
// first module. The shell opens `/` here until a job is chosen, here or in Account; a signed-in
// account's suggested job is marked.
import { t } from '../i18n.js';
import { el } from '../dom.js';
import { icon } from '../icons.js';
import { currentUser, tasksGiven } from '../session.js';
import { JOBS, barModules, chooseJob, suggestedJob } from '../jobs.js';

export const titleKey = 'page.welcome.title';

/**
 * @param {HTMLElement} root
 * @param {import('../router.js').PageContext} context
 */
export async function render(root, { signal }) {
  const cards = JOBS.map((job) => {
    const first = barModules(job.id)[0];
    const badge = el('span', { class: 'job-suggested', hidden: true }, t('job.suggested'));
    const card = el('a', { class: 'job-card', href: first.path, 'data-job': job.id, onclick: () => chooseJob(job.id) },
      icon(first.id),
      el('span', { class: 'job-name' }, t(job.name)),
      el('span', { class: 'job-line' }, t(job.line)),
      badge);
    return { job, card, badge };
  });
  root.replaceChildren(
    el('h1', {}, t('welcome.heading')),
    el('p', { class: 'lead' }, t('welcome.what')),
    el('p', { class: 'welcome-text' }, t('welcome.more')),
    el('p', { class: 'welcome-text' }, t('welcome.private')),
    el('section', { class: 'welcome-jobs', 'aria-labelledby': 'welcome-question' },
      el('h2', { id: 'welcome-question' }, t('welcome.question')),
      el('ul', { class: 'job-cards' }, ...cards.map(({ card }) => el('li', {}, card))),
      el('p', { class: 'hint' }, t('welcome.change'))));

  const user = await currentUser();
  if (!user) return;
  const suggested = suggestedJob(user, await tasksGiven(user));
  if (signal.aborted) return;
  for (const { job, card, badge } of cards) {
    badge.hidden = job.id !== suggested;
    if (job.id === suggested) card.classList.add('suggested');
  }
}
