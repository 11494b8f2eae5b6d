import { describe, expect, it } from 'vitest';
import { corpusText, normalizeForPhrases } from './dictionaries/corpus-text.js';
import { COMPARISON, matchingRules, PATTERN_RULES, type RuleGroup, yearsIn } from './patterns.js';

const ids = (question: string, groups: RuleGroup[] = ['traffic', 'budget']) =>
  matchingRules(question, groups).map((rule) => rule.id);

describe('pattern rules', () => {
  it('recognizes penalty questions in everyday forms', () => {
    for (const question of [
      'Kalau nerobos kena denda berapa?',
      'Dendanya berapa?',
      'Sanksinya apa?',
      'Bisa dipenjara nggak?',
      'Hukumannya apa kalau mabuk?',
    ])
      expect(ids(question, ['traffic'])).toContain('penalty');
    expect(ids('Apa itu Marka Jalan?', ['traffic'])).not.toContain('penalty');
  });

  it('recognizes permission, requirements and definition questions', () => {
    expect(ids('Boleh nggak parkir di trotoar?', ['traffic'])).toContain('permission');
    expect(ids('Apakah dilarang menyalip dari kiri?', ['traffic'])).toContain('permission');
    expect(ids('Syaratnya apa buat bikin SIM?', ['traffic'])).toContain('requirements');
    expect(ids('Gimana cara perpanjang STNK?', ['traffic'])).toContain('requirements');
    expect(ids('Yang dimaksud kecelakaan lalu lintas itu apa?', ['traffic'])).toContain('definition');
    expect(ids('Nyalain lampu siang hari', ['traffic'])).toEqual([]);
  });

  it('applies only the groups asked for', () => {
    expect(ids('Berapa defisit 2020?', ['traffic'])).toEqual([]);
    expect(ids('Berapa defisit 2020?', ['budget'])).toEqual(['figure']);
  });

  it('marks a docs question that opens by asking what something is, and no other', () => {
    expect(ids('what is a reducer', ['docs'])).toEqual(['definition']);
    expect(ids("What's a thunk in Redux?", ['docs'])).toEqual(['definition']);
    expect(ids('Apa itu middleware?', ['docs'])).toEqual(['definition']);
    expect(ids('after upgrading, whats the right import now?', ['docs'])).toEqual([]);
    expect(ids('how do I test a component', ['docs'])).toEqual([]);
  });

  it('adds statute wording that occurs in the documents of its group', () => {
    const texts: Record<RuleGroup, string> = {
      traffic: corpusText('uu-22-2009-llaj'),
      budget: corpusText('apbn-uu'),
      docs: corpusText('docs-redux/docs', { recursive: true }),
    };
    const missing = PATTERN_RULES.flatMap((rule) =>
      rule.add
        .filter((phrase) => !texts[rule.group].includes(normalizeForPhrases(phrase)))
        .map((phrase) => `${rule.id}: ${phrase}`),
    );
    expect(missing).toEqual([]);
  });

  it('finds fiscal years but not amounts or article numbers', () => {
    expect(yearsIn('Bandingkan defisit 2015 dan 2016, naik atau turun?')).toEqual([2015, 2016]);
    expect(yearsIn('Belanja negara tahun 2020 berapa? Kalau 2020 lagi?')).toEqual([2020]);
    expect(yearsIn('Rp2.540 triliun pada Pasal 287 ayat (2)')).toEqual([]);
    expect(yearsIn('Rp1.2019,5 miliar')).toEqual([]);
    expect(COMPARISON.test('naik atau turun?')).toBe(true);
    expect(COMPARISON.test('berapa kenaikannya')).toBe(false);
  });
});
