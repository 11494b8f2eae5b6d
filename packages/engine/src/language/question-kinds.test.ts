import { describe, expect, it } from 'vitest';
import { isQuestionKind, opensWithKind, questionKinds, yearsIn } from './question-kinds.js';

describe('question kinds', () => {
  it('recognizes penalty questions in everyday forms', () => {
    for (const question of [
      'Kalau nerobos kena denda berapa?',
      'Dendanya berapa?',
      'Sanksinya apa?',
      'Bisa dipenjara nggak?',
      'Hukumannya apa kalau mabuk?',
      'What is the fine for running a red light?',
    ])
      expect(questionKinds(question)).toContain('sanction');
    expect(questionKinds('Apa itu Marka Jalan?')).not.toContain('sanction');
  });

  it('recognizes permission, requirements, procedure, definition and liability questions', () => {
    expect(questionKinds('Boleh nggak parkir di trotoar?')).toContain('obligation');
    expect(questionKinds('Apakah dilarang menyalip dari kiri?')).toContain('obligation');
    expect(questionKinds('Syaratnya apa buat bikin SIM?')).toContain('documents');
    expect(questionKinds('Gimana cara perpanjang STNK?')).toContain('procedure');
    expect(questionKinds('Yang dimaksud kecelakaan lalu lintas itu apa?')).toContain('definition');
    expect(questionKinds('Siapa yang bertanggung jawab kalau ditabrak?')).toContain('liability');
    expect(questionKinds('Nyalain lampu siang hari')).toEqual([]);
  });

  it('lists every kind a question is of, the most specific first', () => {
    expect(questionKinds('Boleh nggak parkir di trotoar, dendanya berapa?')).toEqual([
      'sanction',
      'obligation',
      'figure',
    ]);
    expect(questionKinds('Berapa tahun penjara untuk pengemudi mabuk?')[0]).toBe('sanction');
    expect(questionKinds('Umur minimal bikin SIM berapa?')[0]).toBe('age');
    expect(questionKinds('Seberapa besar defisit 2020?')).toEqual(['figure']);
  });

  it('tells comparisons from amounts that merely rise', () => {
    expect(isQuestionKind('Bandingkan defisit 2015 dan 2016, naik atau turun?', 'comparison')).toBe(true);
    expect(isQuestionKind('naik atau turun?', 'comparison')).toBe(true);
    expect(isQuestionKind('berapa kenaikannya', 'comparison')).toBe(false);
  });

  it('marks English definition questions', () => {
    expect(questionKinds('what is a reducer')).toContain('definition');
    expect(questionKinds("What's a thunk in Redux?")).toContain('definition');
    expect(questionKinds('how do I test a component')).not.toContain('definition');
  });

  it('tells a question that opens by asking what something is from one that asks it on the way', () => {
    expect(opensWithKind('what is a reducer', 'definition')).toBe(true);
    expect(opensWithKind("So what's a thunk in Redux?", 'definition')).toBe(true);
    expect(opensWithKind('whats an action in redux', 'definition')).toBe(true);
    expect(opensWithKind('Apa itu middleware?', 'definition')).toBe(true);
    expect(opensWithKind('after upgrading, whats the right import now?', 'definition')).toBe(false);
    expect(opensWithKind('createStore(reducer, enhancer) - what is each argument for?', 'definition')).toBe(
      false,
    );
    expect(opensWithKind('how do I test a component', 'definition')).toBe(false);
  });

  it('finds fiscal years but not amounts or article numbers', () => {
    expect(yearsIn('Bandingkan defisit 2015 dan 2016, naik atau turun?')).toEqual([2015, 2016]);
    expect(yearsIn('Belanja negara tahun 2020 berapa? Kalau 2020 lagi?')).toEqual([2020]);
    expect(yearsIn('Rp2.540 triliun pada Pasal 287 ayat (2)')).toEqual([]);
    expect(yearsIn('Rp1.2019,5 miliar')).toEqual([]);
  });
});
