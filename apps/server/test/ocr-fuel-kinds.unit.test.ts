/**
 * Issue 51: the fuel a receipt sold, proposed as the fill's fuelType — LPG (GPL, GLP, Autogas),
 * CNG (GNC, GNV, by the kg) and charging sessions (kWh, "încărcare", "recarga", a charger) — in
 * Romanian, Spanish and English wordings, each with the quantity in its own unit. Pure: text only.
 */
import { describe, expect, it } from 'vitest';
import { fuelType } from '../src/ocr/fields/fuel-type.js';
import { extractFuel } from '../src/ocr/kinds/fuel.js';
import { toLines } from '../src/ocr/text/lines.js';

const read = (text: string) => extractFuel(toLines(text.trim())).fields;

describe('LPG receipts propose GPL', () => {
  it('ro: "GPL AUTO" at a Romanian pump, litres × price = total', () => {
    expect(
      read(`
OMV PETROM MARKETING SRL
STATIA BUCURESTI 3
GPL AUTO
32,40 LITRI x 3,690
TOTAL LEI 119,56
DATA: 14.03.2025`),
    ).toMatchObject({ fuelType: 'GPL', liters: 32.4, pricePerLiter: 3.69, fuelPrice: 119.56 });
  });

  it('es: "AUTOGAS GLP" on a Repsol ticket', () => {
    expect(
      read(`
REPSOL ESTACION DE SERVICIO
Fecha: 02/04/2025
Producto: AutoGas GLP
Litros   Precio/L   Importe
38,20   0,899   34,34`),
    ).toMatchObject({ fuelType: 'GPL', liters: 38.2, pricePerLiter: 0.899, fuelPrice: 34.34 });
  });

  it('en: "LPG" and a glued "AUTOGAS" both read as LPG', () => {
    expect(
      read(`
SHELL HIGHWAY SERVICES
LPG PUMP 4
40.10 L @ 0.799 /L
TOTAL 32.04`),
    ).toMatchObject({ fuelType: 'GPL', liters: 40.1, fuelPrice: 32.04 });
    expect(fuelType('PUMP3 AUTOGAS 22.10L')?.value).toBe('GPL');
  });
});

describe('CNG receipts propose CNG, the quantity in kg', () => {
  it('ro: "GNC" sold by the kg', () => {
    expect(
      read(`
STATIE GNC PLOIESTI
GNC 12,45 KG x 5,990
TOTAL LEI 74,58`),
    ).toMatchObject({ fuelType: 'CNG', liters: 12.45, pricePerLiter: 5.99, fuelPrice: 74.58 });
  });

  it('es: "GNC" / "GNV" (gas natural vehicular) at €/kg', () => {
    expect(
      read(`
GASNAM ESTACION GNV
Gas natural vehicular
15,20 kg x 1,299 EUR
TOTAL 19,74`),
    ).toMatchObject({ fuelType: 'CNG', liters: 15.2, pricePerLiter: 1.299, fuelPrice: 19.74 });
    expect(fuelType('PRODUCTO: GNC  PRECIO/KG 1,299')?.value).toBe('CNG');
  });

  it('en: "CNG" and a price per kg', () => {
    expect(
      read(`
CNG FUELING STATION
Compressed natural gas
9.80 KG @ 1.450 /KG
TOTAL 14.21`),
    ).toMatchObject({ fuelType: 'CNG', liters: 9.8, pricePerLiter: 1.45, fuelPrice: 14.21 });
  });

  it('a petrol receipt whose weight-like word is no CNG stays petrol', () => {
    expect(fuelType('BENZINA 95 STANDARD\n40,00 LITRI x 7,10')?.value).toBe('PETROL');
  });
});

describe('charging receipts propose ELECTRIC, the quantity in kWh', () => {
  it('ro: "încărcare" at a charging station, in kWh', () => {
    expect(
      read(`
STATIE DE INCARCARE RENOVATIO E-CHARGE
Sesiune de încărcare
Energie: 24,60 kWh
Pret/kWh 2,35
TOTAL LEI 57,81`),
    ).toMatchObject({ fuelType: 'ELECTRIC', liters: 24.6, pricePerLiter: 2.35, fuelPrice: 57.81 });
  });

  it('es: "recarga" at a charger', () => {
    expect(
      read(`
IBERDROLA PUNTO DE RECARGA
Recarga vehiculo electrico
Energia   31,40 kWh
Precio/kWh 0,49
TOTAL 15,39`),
    ).toMatchObject({ fuelType: 'ELECTRIC', liters: 31.4, pricePerLiter: 0.49, fuelPrice: 15.39 });
  });

  it('en: a rapid charger session, and a connector named alone', () => {
    expect(
      read(`
INSTAVOLT RAPID CHARGER
Energy delivered 42.5 kWh @ 0.85
Total 36.13`),
    ).toMatchObject({ fuelType: 'ELECTRIC', liters: 42.5, pricePerLiter: 0.85, fuelPrice: 36.13 });
    expect(fuelType('CONNECTOR CCS2 SESSION 00213')?.value).toBe('ELECTRIC');
  });

  it('a "service charge" on a diesel receipt is no charging session', () => {
    expect(fuelType('DIESEL 45.00 L\nSERVICE CHARGE 0.50')?.value).toBe('DIESEL');
    expect(fuelType('UNLEADED 30.00 L\nCARD SURCHARGE 0.20')?.value).toBe('PETROL');
  });
});
